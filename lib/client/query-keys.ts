import type { ColumnSort } from "@/lib/client/types";
import type { ColumnKey } from "@/lib/tasks/columns";

// One key factory per resource, so invalidations and optimistic updates name the same keys.
export const workspaceKeys = {
  all: ["workspaces"] as const,
  list: () => [...workspaceKeys.all, "list"] as const,
  detail: (id: string) => [...workspaceKeys.all, "detail", id] as const,
  members: (id: string) => [...workspaceKeys.all, "members", id] as const,
};

export const apiKeyKeys = {
  all: ["api-keys"] as const,
};

/** Board columns: one infinite query per column and sort, all under the workspace's prefix. */
export const boardKeys = {
  all: (workspaceId: string) => ["board", workspaceId] as const,
  firstPages: (workspaceId: string) => [...boardKeys.all(workspaceId), "first-pages"] as const,
  columns: (workspaceId: string) => [...boardKeys.all(workspaceId), "column"] as const,
  column: (workspaceId: string, column: ColumnKey) => [...boardKeys.columns(workspaceId), column] as const,
  columnSorted: (workspaceId: string, column: ColumnKey, sort: ColumnSort) =>
    [...boardKeys.column(workspaceId, column), sort.by, sort.dir] as const,
};

export const taskKeys = {
  all: (workspaceId: string) => ["tasks", workspaceId] as const,
  detail: (workspaceId: string, taskId: string) => [...taskKeys.all(workspaceId), taskId] as const,
  runs: (workspaceId: string, taskId: string) => [...taskKeys.detail(workspaceId, taskId), "runs"] as const,
};

export const questionKeys = {
  all: (workspaceId: string) => ["questions", workspaceId] as const,
  list: (workspaceId: string) => [...questionKeys.all(workspaceId), "list"] as const,
};

export const projectKeys = {
  all: (workspaceId: string) => ["projects", workspaceId] as const,
  list: (workspaceId: string) => [...projectKeys.all(workspaceId), "list"] as const,
};

export const scheduleKeys = {
  all: (workspaceId: string) => ["schedules", workspaceId] as const,
  list: (workspaceId: string) => [...scheduleKeys.all(workspaceId), "list"] as const,
};

export const executionKeys = {
  all: (workspaceId: string) => ["executions", workspaceId] as const,
  detail: (workspaceId: string, executionId: string) => [...executionKeys.all(workspaceId), executionId] as const,
  log: (workspaceId: string, executionId: string) => [...executionKeys.detail(workspaceId, executionId), "log"] as const,
};

export const codehostKeys = {
  status: (workspaceId: string) => ["codehost", workspaceId] as const,
};
