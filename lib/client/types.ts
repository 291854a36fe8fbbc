// The shapes the browser reads from the API (docs: /work/shared/spec/service-interface.md).

export const COLUMNS = [
  { key: "backlog", title: "Backlog" },
  { key: "todo", title: "To do" },
  { key: "in_progress", title: "In progress" },
  { key: "in_review", title: "In review" },
  { key: "done", title: "Done" },
] as const;

export type ColumnKey = (typeof COLUMNS)[number]["key"];
export type Priority = "p0" | "p1" | "p2" | "p3" | "p4";
export const PRIORITIES: Priority[] = ["p0", "p1", "p2", "p3", "p4"];
export type SortBy = "position" | "title" | "created_at" | "priority";
export type SortDir = "asc" | "desc";
export interface ColumnSort {
  by: SortBy;
  dir: SortDir;
}
export const DEFAULT_SORT: ColumnSort = { by: "position", dir: "asc" };

export interface Question {
  id: string;
  workspace_id: string;
  task_id: string;
  task_title: string | null;
  content: string;
  context: string | null;
  options: string[] | null;
  answer: string | null;
  status: string;
  priority: number;
  created_at: string;
  answered_at: string | null;
}

export interface TaskRun {
  id: string;
  task_id: string;
  session_id: string | null;
  attempt_number: number;
  status: string;
  exit_code?: number | null;
  error_message?: string | null;
  started_at: string;
  finished_at: string | null;
  duration_seconds?: number | null;
  trigger?: string;
}

export interface Task {
  id: string;
  workspace_id: string;
  title: string;
  description: string;
  status: ColumnKey;
  position: number;
  priority: Priority;
  tags: string[];
  pr_url: string | null;
  has_merge_conflict?: boolean;
  project_id?: string | null;
  phase?: number | null;
  blocked?: boolean;
  project_name?: string | null;
  phase_name?: string | null;
  questions?: Question[];
  task_runs?: TaskRun[];
  latest_run_status?: string | null;
  latest_run_error?: string | null;
  latest_run_trigger?: string | null;
  created_at: string;
  updated_at: string;
  done_at?: string | null;
}

export interface TaskPage {
  items: Task[];
  total: number;
  has_more: boolean;
}

export interface Project {
  id: string;
  workspace_id: string;
  name: string;
  description: string;
  status: string;
  priority: string;
  tags: string[];
  phases?: string[];
  created_at: string;
  updated_at: string;
}

export interface Execution {
  id: string;
  workspace_id: string;
  task_id: string;
  task_run_id: string;
  session_name: string;
  status: string;
  runner_pid: number | null;
  exit_code: number | null;
  error_message: string | null;
  line_count: number;
  last_activity_at: string | null;
  started_at: string;
  finished_at: string | null;
  duration: number | null;
  keep_status: boolean;
  report: string | null;
}

export interface Schedule {
  id: string;
  workspace_id: string;
  name: string;
  slug: string;
  cron: string;
  timezone: string;
  enabled: boolean;
  default_instructions: string;
  task_id?: string | null;
  next_run_at?: string | null;
  last_triggered_at?: string | null;
  created_at: string;
  updated_at: string;
}

export interface TriggerResult {
  schedule_id: string;
  task_id: string;
  task_run_id: string;
  execution_id: string;
}

export interface CodehostStatus {
  connected: boolean;
  installation_id: number | null;
  repo: string | null;
  app_configured?: boolean;
}

export interface Member {
  user_id: string;
  username: string;
  role: "owner" | "member";
  created_at: string;
}

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
}

export interface Workspace {
  id: string;
  name: string;
  created_at: string;
  updated_at: string;
}

export const ACTIVE_RUN_STATUSES = new Set(["queued", "running"]);
