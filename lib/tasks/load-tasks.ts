import type { Db } from "@/lib/db/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { serializeTaskRun } from "@/lib/runs/serialize";
import { type TaskResponse } from "@/lib/tasks/schemas";
import { COLUMNS, type ColumnKey } from "@/lib/tasks/columns";

// Every read of tasks goes through here, so every response carries the same board-level enrichment
// (project and phase names, open questions, the last 10 runs). Each function is ONE SQL statement
// whatever the page size: the enrichment is correlated sub-selects over the page's rows only.

export type SortField = "position" | "title" | "created_at" | "priority";

export interface PageRequest {
  limit: number;
  offset: number;
  sortBy: SortField;
  sortDir: "asc" | "desc";
}

export interface ColumnPage {
  key: ColumnKey;
  title: string;
  total: number;
  has_more: boolean;
  items: TaskResponse[];
}

type Queryable = Pick<Db, "$queryRaw">;

/**
 * Pages of one or more columns with their totals. The page is found on the column's sort index
 * reading ids only (an index-only scan, so a deep offset skips index entries, not table rows),
 * then joined back to the rows it keeps. Totals come from task_column_counts (trigger-maintained),
 * not from counting the column.
 */
export async function loadColumns(db: Queryable, workspaceId: string, keys: ColumnKey[], page: PageRequest): Promise<ColumnPage[]> {
  const dir = Prisma.raw(page.sortDir === "desc" ? "DESC" : "ASC");
  // Inlined, not bound: a sort column cannot be a parameter. sortBy is one of SORT_FIELDS (validated).
  const sortColumn = Prisma.raw(`x.${page.sortBy}`);
  const rows = await db.$queryRaw<TaskRow[]>`
    WITH cols AS (
      SELECT c.key, c.ord,
             COALESCE((SELECT n.count FROM task_column_counts n WHERE n.workspace_id = ${workspaceId} AND n.status = c.key), 0) AS total
      FROM unnest(${keys}::text[]) WITH ORDINALITY AS c(key, ord)
    ),
    page AS (
      SELECT cols.key AS col, k.id, row_number() OVER (PARTITION BY cols.key ORDER BY k.sort_key ${dir}, k.id ${dir}) AS rn
      FROM cols CROSS JOIN LATERAL (
        SELECT x.id, ${sortColumn} AS sort_key FROM tasks x
        WHERE x.workspace_id = ${workspaceId} AND x.status = cols.key
        ORDER BY ${sortColumn} ${dir}, x.id ${dir}
        LIMIT ${page.limit} OFFSET ${page.offset}
      ) k
    )
    SELECT cols.key AS col, cols.total, ${ENRICHED_COLUMNS}
    FROM cols
    LEFT JOIN page ON page.col = cols.key
    LEFT JOIN tasks t ON t.id = page.id
    LEFT JOIN projects pr ON pr.id = t.project_id
    ORDER BY cols.ord, page.rn`;

  return keys.map((key) => {
    const own = rows.filter((row) => row.col === key);
    const total = own[0]?.total ?? 0;
    const items = own.filter((row) => row.id !== null).map(toTaskResponse);
    return {
      key,
      title: COLUMNS.find((column) => column.key === key)!.title,
      total,
      has_more: page.offset + items.length < total,
      items,
    };
  });
}

/** The given tasks of a workspace (unknown ids are left out), enriched like the board's. */
export async function loadTasks(db: Queryable, workspaceId: string, ids: string[]): Promise<TaskResponse[]> {
  const rows = await db.$queryRaw<TaskRow[]>`
    SELECT NULL AS col, NULL AS total, ${ENRICHED_COLUMNS}
    FROM tasks t
    LEFT JOIN projects pr ON pr.id = t.project_id
    WHERE t.workspace_id = ${workspaceId} AND t.id = ANY(${ids}::text[])`;
  const byId = new Map(rows.map((row) => [row.id, toTaskResponse(row)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export async function loadTask(db: Queryable, workspaceId: string, id: string): Promise<TaskResponse | undefined> {
  return (await loadTasks(db, workspaceId, [id]))[0];
}

// Alias `t` is the task, `pr` its project.
const ENRICHED_COLUMNS = Prisma.sql`
  t.id, t.workspace_id, t.title, t.description, t.status, t.position, t.priority, t.tags, t.pr_url,
  t.has_merge_conflict, t.project_id, t.phase, t.blocked, t.created_at, t.updated_at, t.done_at,
  pr.name AS project_name, pr.phases AS project_phases,
  (SELECT COALESCE(json_agg(json_build_object(
            'id', q.id, 'workspace_id', q.workspace_id, 'task_id', q.task_id, 'content', q.content,
            'context', q.context, 'options', q.options, 'answer', q.answer, 'status', q.status,
            'priority', q.priority, 'created_at', q.created_at, 'answered_at', q.answered_at)
          ORDER BY q.created_at, q.id), '[]'::json)
     FROM questions q WHERE q.task_id = t.id AND q.status = 'open') AS open_questions,
  (SELECT COALESCE(json_agg(json_build_object(
            'id', r.id, 'task_id', r.task_id, 'session_id', r.session_id, 'attempt_number', r.attempt_number,
            'status', r.status, 'trigger', r.trigger, 'exit_code', r.exit_code, 'error_message', r.error_message,
            'started_at', r.started_at, 'finished_at', r.finished_at, 'duration_seconds', r.duration_seconds)
          ORDER BY r.created_at DESC, r.id), '[]'::json)
     FROM (SELECT * FROM task_runs r0 WHERE r0.task_id = t.id ORDER BY r0.created_at DESC, r0.id LIMIT 10) r) AS runs`;

interface TaskRow {
  col: string | null;
  total: number | null;
  id: string;
  workspace_id: string;
  title: string;
  description: string;
  status: string;
  position: number;
  priority: TaskResponse["priority"];
  tags: string[];
  pr_url: string | null;
  has_merge_conflict: boolean;
  project_id: string | null;
  phase: number | null;
  blocked: boolean;
  created_at: Date;
  updated_at: Date;
  done_at: Date | null;
  project_name: string | null;
  project_phases: string[] | null;
  open_questions: JsonQuestion[];
  runs: JsonRun[];
}

// Timestamps inside json_build_object arrive as PostgreSQL's text form; re-emit them as ISO 8601.
interface JsonQuestion {
  id: string;
  workspace_id: string;
  task_id: string;
  content: string;
  context: string | null;
  options: string[] | null;
  answer: string | null;
  status: "open" | "answered";
  priority: number;
  created_at: string;
  answered_at: string | null;
}

interface JsonRun {
  id: string;
  task_id: string;
  session_id: string | null;
  attempt_number: number;
  status: string;
  trigger: string;
  exit_code: number | null;
  error_message: string | null;
  started_at: string;
  finished_at: string | null;
  duration_seconds: number | null;
}

function toTaskResponse(row: TaskRow): TaskResponse {
  const questions = row.open_questions.map((q) => ({
    id: q.id,
    workspace_id: q.workspace_id,
    task_id: q.task_id,
    task_title: row.title,
    content: q.content,
    context: q.context,
    options: q.options,
    answer: q.answer,
    status: q.status,
    priority: q.priority,
    created_at: iso(q.created_at),
    answered_at: q.answered_at === null ? null : iso(q.answered_at),
  }));
  const runs = row.runs.map((r) =>
    serializeTaskRun({
      id: r.id,
      taskId: r.task_id,
      workspaceId: row.workspace_id,
      sessionId: r.session_id,
      attemptNumber: r.attempt_number,
      status: r.status,
      trigger: r.trigger,
      exitCode: r.exit_code,
      errorMessage: r.error_message,
      startedAt: new Date(r.started_at),
      finishedAt: r.finished_at === null ? null : new Date(r.finished_at),
      durationSeconds: r.duration_seconds,
      createdAt: new Date(r.started_at),
    }),
  );
  const phases = row.project_phases ?? [];
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    title: row.title,
    description: row.description,
    status: row.status,
    position: row.position,
    priority: row.priority,
    tags: row.tags,
    pr_url: row.pr_url,
    has_merge_conflict: row.has_merge_conflict,
    project_id: row.project_id,
    phase: row.phase,
    blocked: row.blocked || questions.length > 0,
    project_name: row.project_name,
    phase_name: row.phase !== null && row.phase >= 1 && row.phase <= phases.length ? phases[row.phase - 1] : null,
    questions,
    task_runs: runs,
    latest_run_status: runs[0]?.status ?? null,
    latest_run_error: runs[0]?.error_message ?? null,
    latest_run_trigger: runs[0]?.trigger ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    done_at: row.done_at?.toISOString() ?? null,
  };
}

function iso(text: string): string {
  return new Date(text).toISOString();
}
