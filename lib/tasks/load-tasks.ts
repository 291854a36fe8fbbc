import { statement, type Sql, type Statement } from "@/lib/db/sql";
import { workspaceReadStatement, type WorkspaceRead } from "@/lib/auth/authenticate";
import type { TaskResponse } from "@/lib/tasks/schemas";
import { COLUMNS, SORT_FIELDS, type ColumnKey } from "@/lib/tasks/columns";
import { agentSilenceSeconds } from "@/lib/config";

// Every read of tasks goes through here, so every response carries the same board-level enrichment
// (project and phase names, open questions, the last 10 runs). Each function is ONE prepared SQL
// statement whatever the page size: the enrichment is two joins per task of the page (its project,
// and its task_board_extras row, which triggers keep), never a query per task.
//
// PostgreSQL writes the JSON itself (TASK_JSON is the one serializer of a task): a page reaches
// Node as one string that goes out as the response body as it is, so Node builds no objects for
// it. Timestamps are ISO 8601 in UTC with milliseconds, like Date.toISOString().

export type SortField = (typeof SORT_FIELDS)[number];

export interface PageRequest {
  limit: number;
  offset: number;
  sortBy: SortField;
  sortDir: "asc" | "desc";
}

// The board's reads come back with the caller's credential check, in one statement per request
// (workspaceReadStatement): their results are the response bodies, as JSON text.

/** GET …/board/column/{column}: `{"items", "total", "has_more"}`. */
export function columnPageRead(key: ColumnKey, page: PageRequest): WorkspaceRead {
  return { statement: COLUMN_PAGE[page.sortBy][page.sortDir], params: [[key], page.limit, page.offset] };
}

/**
 * GET …/board: the first page of every column, `{"columns": [{key, title, total, has_more, items}], "cursor"}`.
 * `cursor` is the newest event id of the workspace's log in the same snapshot: the board shows
 * every event up to it and none after it (lib/events).
 */
export function boardRead(limit: number): WorkspaceRead {
  return { statement: BOARD, params: [COLUMNS.map((c) => c.key), COLUMNS.map((c) => c.title), limit] };
}

/** What list_tasks of the MCP server narrows the board by; see TASK_SEARCH. */
export interface TaskSearch {
  columns: readonly ColumnKey[];
  projectId: string | null;
  /** A case-insensitive part of the title. */
  search: string | null;
  limit: number;
  offset: number;
}

/** Tasks of the given columns in board order (column, then position), narrowed: `{"items", "has_more"}`. */
export function taskSearchRead(query: TaskSearch): WorkspaceRead {
  return { statement: TASK_SEARCH, params: [query.columns, query.projectId, query.search, query.limit, query.offset] };
}

/** The given tasks of a workspace (unknown ids are left out), enriched like the board's. */
export async function loadTasks(sql: Sql, workspaceId: string, ids: string[]): Promise<TaskResponse[]> {
  const [row] = await sql<{ body: string }>(TASKS_BY_ID, [workspaceId, ids]);
  const byId = new Map((JSON.parse(row.body) as TaskResponse[]).map((task) => [task.id, task]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export async function loadTask(sql: Sql, workspaceId: string, id: string): Promise<TaskResponse | undefined> {
  return (await loadTasks(sql, workspaceId, [id]))[0];
}

/** SQL for one task's JSON (or NULL), for statements that embed it, such as the event log's insert. */
export function taskJsonSql(workspaceIdExpr: string, taskIdExpr: string): string {
  return `(SELECT ${TASK_JSON} FROM tasks t ${TASK_JOINS} WHERE t.workspace_id = ${workspaceIdExpr} AND t.id = ${taskIdExpr})`;
}

// ---------------------------------------------------------------- SQL

// taskboard_iso: prisma/sql/functions/taskboard_iso.sql, the one definition of the format.
const iso = (expr: string) => `taskboard_iso(${expr})`;

// A running run's last word, so its card can say "no output for N min": one probe on
// executions(task_id, status), and only for tasks whose run is running.
const LATEST_RUN_ACTIVITY = `CASE WHEN e.latest_run_status = 'running' THEN (SELECT ${iso("COALESCE(x.last_activity_at, x.started_at)")}
    FROM executions x WHERE x.task_id = t.id AND x.status = 'running' ORDER BY x.created_at DESC LIMIT 1) END AS latest_run_activity_at,
  CASE WHEN e.latest_run_status = 'running' THEN ${agentSilenceSeconds()} END AS latest_run_silence_seconds`;

// A task as TaskResponse. Aliases: `t` the task, `pr` its project, `e` its task_board_extras row
// (from TASK_JOINS). That row holds the open questions' and the newest runs' JSON, written by
// triggers (migration task_board_extras) in the records' own shape (lib/tasks/schemas.ts; the
// strict-parse test tests/api/contracts.test.ts holds both to it); a question's task_title is
// stored as null and set here, so renaming a task needs no write to it. The function that writes it
// is prisma/sql/functions/task_board_extras_refresh.sql (docs/sql-functions.md).
// row_to_json, not json_build_object: the latter writes `"key" : value, ` (three bytes more per field),
// which was ~7% of a board response; the JSON is the same, field for field and in the same order.
const TASK_JSON = `(SELECT row_to_json(j) FROM (SELECT
  t.id, t.workspace_id, t.number, t.branch, t.title, t.description,
  t.status, t.position, t.priority, COALESCE(t.tags, '{}') AS tags,
  t.pr_url, t.has_merge_conflict,
  t.pr_number, t.pr_state, t.pr_head_sha, t.checks, t.project_id, t.phase,
  t.blocked OR e.open_questions IS NOT NULL AS blocked,
  pr.name AS project_name,
  CASE WHEN t.phase BETWEEN 1 AND cardinality(pr.phases) THEN pr.phases[t.phase] END AS phase_name,
  CASE WHEN e.open_questions IS NULL THEN '[]'::json
    ELSE (SELECT json_agg(q.question::jsonb || jsonb_build_object('task_title', t.title) ORDER BY q.n)
          FROM json_array_elements(e.open_questions) WITH ORDINALITY AS q(question, n)) END AS questions,
  COALESCE(e.runs, '[]'::json) AS task_runs,
  e.latest_run_status, e.latest_run_error, e.latest_run_trigger,
  ${LATEST_RUN_ACTIVITY},
  COALESCE(e.blocked_by, '{}') AS blocked_by, COALESCE(e.blocks, '{}') AS blocks, COALESCE(e.open_blockers, 0) AS open_blocker_count,
  ${iso("t.created_at")} AS created_at, ${iso("t.updated_at")} AS updated_at, ${iso("t.done_at")} AS done_at) j)`;

// One probe per task for everything beyond its own row: the three sub-selects per task that this
// replaced were half of PostgreSQL's time for a page (docs/PERFORMANCE.md).
const TASK_JOINS = `
  LEFT JOIN projects pr ON pr.id = t.project_id
  LEFT JOIN task_board_extras e ON e.task_id = t.id`;

// Pages of the columns in $3 (keys, in order) of workspace $1: `limit` tasks from `offset`
// (parameters of the statement, or constants). The page is
// found on the column's sort index reading ids only (an index-only scan, so a deep offset skips
// index entries, not table rows), then joined back to the rows it keeps. Totals come from
// task_column_counts (kept by triggers), not from counting the column. One statement text per sort
// field and direction: a sort column cannot be a parameter.
function columnsCte(sortBy: SortField, dir: "ASC" | "DESC", limit: string, offset: string) {
  return `
  WITH cols AS (
    SELECT c.key, c.ord, COALESCE(n.count, 0) AS total
    FROM unnest($3::text[]) WITH ORDINALITY AS c(key, ord)
    LEFT JOIN task_column_counts n ON n.workspace_id = $1 AND n.status = c.key
  ),
  pages AS (
    SELECT cols.key, cols.ord, cols.total, p.items, p.n
    FROM cols CROSS JOIN LATERAL (
      SELECT COALESCE(json_agg(${TASK_JSON} ORDER BY k.sort_key ${dir}, k.id ${dir}), '[]'::json) AS items, count(*) AS n
      FROM (
        SELECT x.id, x.${sortBy} AS sort_key FROM tasks x
        WHERE x.workspace_id = $1 AND x.status = cols.key
        ORDER BY x.${sortBy} ${dir}, x.id ${dir}
        LIMIT ${limit} OFFSET ${offset}
      ) k
      JOIN tasks t ON t.id = k.id
      ${TASK_JOINS}
    ) p
  )`;
}

const COLUMN_PAGE = Object.fromEntries(
  SORT_FIELDS.map((sortBy) => [
    sortBy,
    Object.fromEntries(
      (["asc", "desc"] as const).map((dir) => [
        dir,
        workspaceReadStatement(
          `column_page_${sortBy}_${dir}`,
          `${columnsCte(sortBy, dir === "asc" ? "ASC" : "DESC", "$4", "$5")}
          SELECT json_build_object('items', items, 'total', total, 'has_more', $5 + n < total)::text FROM pages`,
        ),
      ]),
    ),
  ]),
) as Record<SortField, Record<"asc" | "desc", Statement>>;

// $4 is the columns' titles, in the order of their keys in $3; $5 the page size.
const BOARD = workspaceReadStatement(
  "board_first_pages",
  `${columnsCte("position", "ASC", "$5", "0")}
  SELECT json_build_object('columns', json_agg(json_build_object(
           'key', pages.key, 'title', ($4::text[])[pages.ord], 'total', pages.total,
           'has_more', pages.n < pages.total, 'items', pages.items) ORDER BY pages.ord),
         'cursor', (SELECT COALESCE(max(h.last_id), 0)::text FROM workspace_event_heads h WHERE h.workspace_id = $1))::text
  FROM pages`,
);

// $4 project id or null, $5 title part or null, $6 page size, $7 offset. Each column is read on its
// position index and stops after offset + limit + 1 matches, so the work follows the page, not
// the workspace (when matches are sparse, the scan goes on until it has found enough of them).
// No total: that would mean finding every match; `has_more` comes from the one extra row.
const TASK_SEARCH = workspaceReadStatement(
  "task_search",
  `SELECT json_build_object(
     'items', COALESCE(json_agg(${TASK_JSON} ORDER BY k.rn) FILTER (WHERE k.rn <= $6::int), '[]'::json),
     'has_more', count(*) > $6::int)::text
   FROM (
     SELECT page.id, row_number() OVER (ORDER BY page.ord, page.position) AS rn
     FROM (
       SELECT m.id, c.ord, m.position
       FROM unnest($3::text[]) WITH ORDINALITY AS c(key, ord)
       CROSS JOIN LATERAL (
         SELECT x.id, x.position FROM tasks x
         WHERE x.workspace_id = $1 AND x.status = c.key
           AND ($4::text IS NULL OR x.project_id = $4)
           AND ($5::text IS NULL OR strpos(lower(x.title), lower($5)) > 0)
         ORDER BY x.position
         LIMIT $6::int + $7::int + 1
       ) m
       ORDER BY c.ord, m.position
       LIMIT $6::int + 1 OFFSET $7::int
     ) page
   ) k
   JOIN tasks t ON t.id = k.id
   ${TASK_JOINS}`,
);

const TASKS_BY_ID = statement(
  "tasks_by_id",
  `SELECT COALESCE(json_agg(${TASK_JSON}), '[]'::json)::text AS body
   FROM tasks t ${TASK_JOINS}
   WHERE t.workspace_id = $1 AND t.id = ANY($2::text[])`,
);
