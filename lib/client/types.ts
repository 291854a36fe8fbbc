// The shapes the browser reads from the API, inferred from the zod schemas the server validates and
// documents with. Type-only imports: none of zod reaches the browser's bundle.
import type { z } from "zod";
import type { apiKey } from "@/lib/auth/schemas";
import type { codehostStatus } from "@/lib/codehost/schemas";
import type { projectResponse } from "@/lib/projects/schemas";
import type { questionResponse } from "@/lib/questions/schemas";
import type { execution } from "@/lib/runs/schemas";
import type { scheduleResponse, triggerResponse } from "@/lib/schedules/schemas";
import type { paginatedTasksResponse, taskResponse, taskRunResponse } from "@/lib/tasks/schemas";
import type { member, workspace } from "@/lib/workspaces/schemas";
import type { ColumnKey, SORT_FIELDS } from "@/lib/tasks/columns";
import { ACTIVE_RUN_STATUSES as ACTIVE } from "@/lib/runs/statuses";

export type SortBy = (typeof SORT_FIELDS)[number];
export type SortDir = "asc" | "desc";
export interface ColumnSort {
  by: SortBy;
  dir: SortDir;
}
export const DEFAULT_SORT: ColumnSort = { by: "position", dir: "asc" };

export type Question = z.output<typeof questionResponse>;
export type TaskRun = z.output<typeof taskRunResponse>;
export type Task = Omit<z.output<typeof taskResponse>, "status"> & { status: ColumnKey };
export type TaskPage = Omit<z.output<typeof paginatedTasksResponse>, "items"> & { items: Task[] };
export type Project = z.output<typeof projectResponse>;
export type Execution = z.output<typeof execution>;
export type Schedule = z.output<typeof scheduleResponse>;
export type TriggerResult = z.output<typeof triggerResponse>;
export type CodehostStatus = z.output<typeof codehostStatus>;
export type Member = z.output<typeof member>;
export type ApiKey = z.output<typeof apiKey>;
export type Workspace = z.output<typeof workspace>;

export const ACTIVE_RUN_STATUSES = new Set<string>(ACTIVE);
