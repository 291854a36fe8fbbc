import { inject } from "vitest";
import pg from "pg";
import { call } from "./api";

// Task helpers shared by tests/api/{tasks,board,move}.test.ts.

export const TASK_FIELDS = [
  "id",
  "workspace_id",
  "number",
  "branch",
  "title",
  "description",
  "status",
  "position",
  "priority",
  "tags",
  "pr_url",
  "has_merge_conflict",
  "pr_number",
  "pr_state",
  "pr_head_sha",
  "checks",
  "project_id",
  "phase",
  "blocked",
  "project_name",
  "phase_name",
  "questions",
  "open_question_count",
  "task_runs",
  "latest_run_status",
  "latest_run_error",
  "latest_run_trigger",
  "latest_run_activity_at",
  "latest_run_silence_seconds",
  "latest_run_waiting_for_runner",
  "blocked_by",
  "blocks",
  "open_blocker_count",
  "assignees",
  "due_at",
  "created_at",
  "updated_at",
  "done_at",
].sort();

export async function createTask(token: string, workspaceId: string, body: Record<string, unknown> = {}) {
  const response = await call("POST", `/api/workspaces/${workspaceId}/tasks`, { token, json: { title: "task", ...body } });
  if (response.status !== 201) throw new Error(`create task: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

/** Ids of a column in board order (first 100). */
export async function columnIds(token: string, workspaceId: string, column: string): Promise<string[]> {
  const response = await call("GET", `/api/workspaces/${workspaceId}/board/column/${column}?limit=100`, { token });
  if (response.status !== 200) throw new Error(`column: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.items.map((task: { id: string }) => task.id);
}

export const onPostgres = () => inject("databaseKind") === "postgresql";

/** Direct SQL on the test database, for rows no route of this branch creates (PostgreSQL pass only). */
export async function sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: inject("databaseUrl") });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}
