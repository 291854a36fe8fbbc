import type { QueryKey } from "@tanstack/react-query";
import type { ColumnSort } from "@/lib/client/types";
import type { ColumnKey } from "@/lib/tasks/columns";

// One key factory per resource, so invalidations and optimistic updates name the same keys. The
// resource modules (lib/client/tasks.ts, questions.ts, …) build their queries on these; the live
// event stream invalidates and patches through them too.

export const workspaceKeys = {
  all: ["workspaces"] as const,
  list: () => [...workspaceKeys.all, "list"] as const,
  detail: (id: string) => [...workspaceKeys.all, "detail", id] as const,
  members: (id: string) => [...workspaceKeys.all, "members", id] as const,
  invitations: (id: string) => [...workspaceKeys.all, "invitations", id] as const,
};

/** Users: the administrators' list, and the people picker's searches. */
export const userKeys = {
  all: ["users"] as const,
  list: () => [...userKeys.all, "list"] as const,
  search: (q: string, workspaceId: string) => [...userKeys.all, "search", workspaceId, q] as const,
};

export const apiKeyKeys = {
  all: ["api-keys"] as const,
};

export const connectedClientKeys = {
  all: ["oauth-clients"] as const,
};

/** The signed-in person (GET /api/auth/me). */
export const currentUserKeys = {
  me: ["current-user"] as const,
};

/** The signed-in person's notifications: the bell's count, the inbox's pages, preferences, deliveries. */
export const notificationKeys = {
  all: ["notifications"] as const,
  unread: () => [...notificationKeys.all, "unread"] as const,
  page: (offset: number, unreadOnly: boolean) => [...notificationKeys.all, "page", offset, unreadOnly] as const,
  settings: () => [...notificationKeys.all, "settings"] as const,
  deliveries: () => [...notificationKeys.all, "deliveries"] as const,
  watch: (workspaceId: string) => [...notificationKeys.all, "watch", workspaceId] as const,
  push: () => [...notificationKeys.all, "push"] as const,
};

/** The server's runners (administrators; not a workspace's). */
export const runnerKeys = {
  list: ["runners", "list"] as const,
  /** Which of them a workspace lets take its jobs, and the server's RUNNERS_REQUIRE_SANDBOX. */
  workspace: (workspaceId: string) => ["runners", "workspace", workspaceId] as const,
};

/**
 * Board columns: one infinite query per column and sort. The key is one object with named fields
 * (TanStack Query matches objects by their fields, so a key with fewer fields is a prefix of every
 * key that agrees on them), and decodeColumnKey reads it back by name.
 */
export interface ColumnQueryKey {
  scope: "board";
  workspaceId: string;
  kind: "column";
  column: ColumnKey;
  sortBy: ColumnSort["by"];
  sortDir: ColumnSort["dir"];
  /** The server-side filters as a query string (lib/client/board-filters.ts); absent: none. */
  filter?: string;
}

export const boardKeys = {
  all: (workspaceId: string) => [{ scope: "board", workspaceId }] as const,
  firstPages: (workspaceId: string) => [{ scope: "board", workspaceId, kind: "first-pages" }] as const,
  columns: (workspaceId: string) => [{ scope: "board", workspaceId, kind: "column" }] as const,
  column: (workspaceId: string, column: ColumnKey) => [{ scope: "board", workspaceId, kind: "column", column }] as const,
  columnSorted: (workspaceId: string, column: ColumnKey, sort: ColumnSort, filter = ""): readonly [ColumnQueryKey] => [
    { scope: "board", workspaceId, kind: "column", column, sortBy: sort.by, sortDir: sort.dir, ...(filter ? { filter } : {}) },
  ],
};

/** The named parts of a column query's key (as returned by getQueriesData on boardKeys.columns). */
export function decodeColumnKey(key: QueryKey): ColumnQueryKey {
  const [parts] = key as readonly [ColumnQueryKey];
  if (parts?.scope !== "board" || parts.kind !== "column") throw new Error(`not a board column key: ${JSON.stringify(key)}`);
  return parts;
}

export const taskKeys = {
  all: (workspaceId: string) => ["tasks", workspaceId] as const,
  detail: (workspaceId: string, taskId: string) => [...taskKeys.all(workspaceId), taskId] as const,
  runs: (workspaceId: string, taskId: string) => [...taskKeys.detail(workspaceId, taskId), "runs"] as const,
  dependencies: (workspaceId: string, taskId: string) => [...taskKeys.detail(workspaceId, taskId), "dependencies"] as const,
  activity: (workspaceId: string, taskId: string) => [...taskKeys.detail(workspaceId, taskId), "activity"] as const,
  comments: (workspaceId: string, taskId: string) => [...taskKeys.detail(workspaceId, taskId), "comments"] as const,
  search: (workspaceId: string, text: string) => [...taskKeys.all(workspaceId), "search", text] as const,
};

export const questionKeys = {
  all: (workspaceId: string) => ["questions", workspaceId] as const,
  list: (workspaceId: string) => [...questionKeys.all(workspaceId), "list"] as const,
  answered: (workspaceId: string) => [...questionKeys.all(workspaceId), "answered"] as const,
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

export const diffKeys = {
  task: (workspaceId: string, taskId: string) => [...taskKeys.detail(workspaceId, taskId), "diff"] as const,
};

export const agentKeys = {
  all: (workspaceId: string) => ["agents", workspaceId] as const,
  list: (workspaceId: string) => [...agentKeys.all(workspaceId), "list"] as const,
  presets: (workspaceId: string) => [...agentKeys.all(workspaceId), "presets"] as const,
  fallback: (workspaceId: string) => [...agentKeys.all(workspaceId), "fallback"] as const,
};

export const repositoryKeys = {
  detail: (workspaceId: string) => ["repository", workspaceId] as const,
};

export const slackKeys = {
  status: (workspaceId: string) => ["slack", workspaceId] as const,
};

export const codehostKeys = {
  status: (workspaceId: string) => ["codehost", workspaceId] as const,
  repositories: (workspaceId: string) => ["codehost", workspaceId, "repositories"] as const,
  deliveries: (workspaceId: string) => ["codehost", workspaceId, "deliveries"] as const,
  settings: (workspaceId: string) => ["codehost", workspaceId, "settings"] as const,
};

export const reactionKeys = {
  list: (workspaceId: string) => ["reactions", workspaceId] as const,
};

export const webhookKeys = {
  all: (workspaceId: string) => ["webhooks", workspaceId] as const,
  list: (workspaceId: string) => [...webhookKeys.all(workspaceId), "list"] as const,
  deliveries: (workspaceId: string, webhookId: string) => [...webhookKeys.all(workspaceId), webhookId, "deliveries"] as const,
};
