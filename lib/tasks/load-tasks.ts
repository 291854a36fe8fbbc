import { statement, type Sql, type Statement } from "@/lib/db/sql";
import { workspaceReadStatement, type WorkspaceRead } from "@/lib/auth/authenticate";
import { TASK_VIEWS, type TaskResponse, type TaskView } from "@/lib/tasks/schemas";
import { COLUMNS, SORT_FIELDS, type ColumnKey } from "@/lib/tasks/columns";
import { cardJson, TASK_JOINS, taskJson } from "@/lib/db/task-json-sql";

// Every read of tasks goes through here, so every response carries the same board-level enrichment
// (project and phase names, open questions, the last 10 runs), or, for the board and a compact
// column page, the same card (cardJson: the summary of those). Each function is ONE prepared SQL
// statement whatever the page size: the enrichment is two joins per task of the page (its project,
// and its task_board_extras row, which triggers keep), never a query per task.
//
// PostgreSQL writes the JSON itself (taskJson is the one serializer of a task): a page reaches
// Node as one string that goes out as the response body as it is, so Node builds no objects for
// it. Timestamps are ISO 8601 in UTC with milliseconds, like Date.toISOString().

export type SortField = (typeof SORT_FIELDS)[number];

// A task and a card in this file's statements, whose $1 is always the workspace (see latestRunWaiting).
const TASK = taskJson("$1");
const CARD = cardJson("$1");

export interface PageRequest {
  limit: number;
  offset: number;
  sortBy: SortField;
  sortDir: "asc" | "desc";
  /** `me`, a user id or an agent profile id: only the tasks assigned to them (null: every task). */
  assignee?: string | null;
  /** Words of the title or the description, or a task's number (`#12` or `12`); null: every task. */
  q?: string | null;
  project_id?: string | null;
  tag?: string | null;
  priority?: string | null;
}

/** The board's filters (lib/tasks/filter-schemas.ts): any given means the filtered statements. */
export type BoardFilter = Pick<PageRequest, "assignee" | "q" | "project_id" | "tag" | "priority">;

// In the filtered statements' order, from $6.
function filterParams(filter: BoardFilter): (string | null)[] | null {
  const values = [filter.assignee, filter.q, filter.project_id, filter.tag, filter.priority].map((value) => value || null);
  return values.some((value) => value !== null) ? values : null;
}

// The board's reads come back with the caller's credential check, in one statement per request
// (workspaceReadStatement): their results are the response bodies, as JSON text.

/** GET …/board/column/{column}: `{"items", "total", "has_more"}`, of task records or (view `compact`) of cards. */
export function columnPageRead(key: ColumnKey, page: PageRequest, view: TaskView = "full"): WorkspaceRead {
  const filter = filterParams(page);
  const first = page.offset === 0;
  if (filter) {
    const statements = first ? FIRST_FILTERED_COLUMN_PAGE : FILTERED_COLUMN_PAGE;
    return { statement: statements[view][page.sortBy][page.sortDir], params: [[key], page.limit, page.offset, ...filter] };
  }
  return {
    statement: (first ? FIRST_COLUMN_PAGE : COLUMN_PAGE)[view][page.sortBy][page.sortDir],
    params: [[key], page.limit, page.offset],
  };
}

/**
 * GET …/board: the first page of every column, as cards (lib/tasks/card-schemas.ts),
 * `{"columns": [{key, title, total, has_more, items}], "cursor"}`.
 * `cursor` is the newest event id of the workspace's log in the same snapshot: the board shows
 * every event up to it and none after it (lib/events).
 */
export function boardRead(limit: number, filter: BoardFilter = {}): WorkspaceRead {
  const params = [COLUMNS.map((c) => c.key), COLUMNS.map((c) => c.title), limit];
  const filters = filterParams(filter);
  return filters ? { statement: FILTERED_BOARD, params: [...params, ...filters] } : { statement: BOARD, params };
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

// A page's tasks looked up one by one by their ids (k.id), never hashed: see TASK_JOINS for why.
const TASK_BY_KEY = "(SELECT r.* FROM tasks r WHERE r.id = k.id OFFSET 0) t";

// Pages of the columns in $3 (keys, in order) of workspace $1: `limit` tasks from `offset`
// (parameters of the statement, or constants). A page further in is
// found on the column's sort index reading ids only (an index-only scan, so a deep offset skips
// index entries, not table rows), then joined back to the rows it keeps. A first page (offset the
// constant 0, as the board's) skips nothing, so it reads its rows on that index directly: no second
// look-up of each task by its key, which was a sixth of PostgreSQL's time for the board and two
// fifths of PGlite's (docs/PERFORMANCE.md, "First pages read their rows directly"). Totals come from
// task_column_counts (kept by triggers), not from counting the column. One statement text per sort
// field and direction: a sort column cannot be a parameter.
//
// Filtered (`filter` names the first of five parameters: the assignee, `me`, a user id or an agent
// profile id; the search text; the project id; a tag; a priority; any may be null), the page is read on the same index: the
// assignments as a semi-join (their (workspace_id, user_id | agent_profile_id, task_id) indexes),
// the search as a test of each row (title, description, or the number for `#12` or `12`), and the
// total is a count of the matches. `me` is the caller (workspaceReadStatement's `caller` row).
function columnsCte(json: string, sortBy: SortField, dir: "ASC" | "DESC", limit: string, offset: string, filter: string | null = null) {
  const [q, project, tag, priority] = [1, 2, 3, 4].map((n) => (filter ? `$${Number(filter.slice(1)) + n}` : ""));
  const who = `(CASE WHEN ${filter}::text = 'me' THEN caller.user_id ELSE ${filter}::text END)`;
  const assigned = filter
    ? `AND (${filter}::text IS NULL OR x.id IN (SELECT a.task_id FROM task_assignees a WHERE a.workspace_id = $1 AND (a.user_id = ${who} OR a.agent_profile_id = ${who})))
       AND (${q}::text IS NULL OR strpos(lower(x.title), lower(${q}::text)) > 0 OR strpos(lower(x.description), lower(${q}::text)) > 0
            OR (${q}::text ~ '^#?[0-9]{1,9}$' AND x.number = ltrim(${q}::text, '#')::int))
       AND (${project}::text IS NULL OR x.project_id = ${project}::text)
       AND (${tag}::text IS NULL OR ${tag}::text = ANY(x.tags))
       AND (${priority}::text IS NULL OR x.priority = ${priority}::text)`
    : "";
  const total = filter
    ? `(SELECT count(*) FROM tasks x WHERE x.workspace_id = $1 AND x.status = c.key ${assigned})`
    : "COALESCE(n.count, 0)";
  // Tasks without a due date come last whichever the direction; the other sort keys are never null.
  const nulls = sortBy === "due_at" ? " NULLS LAST" : "";
  const first = offset === "0";
  const scan = first ? "t" : "k";
  return `
  WITH cols AS (
    SELECT c.key, c.ord, ${total} AS total
    FROM unnest($3::text[]) WITH ORDINALITY AS c(key, ord)
    LEFT JOIN task_column_counts n ON n.workspace_id = $1 AND n.status = c.key
  ),
  pages AS (
    SELECT cols.key, cols.ord, cols.total, p.items, p.n
    FROM cols CROSS JOIN LATERAL (
      SELECT COALESCE(json_agg(${json} ORDER BY ${scan}.sort_key ${dir}${nulls}, ${scan}.id ${dir}), '[]'::json) AS items, count(*) AS n
      FROM (
        SELECT ${first ? "x.*" : "x.id"}, x.${sortBy} AS sort_key FROM tasks x
        WHERE x.workspace_id = $1 AND x.status = cols.key ${assigned}
        ORDER BY x.${sortBy} ${dir}${nulls}, x.id ${dir}
        LIMIT ${limit} OFFSET ${offset}
      ) ${first ? "t" : `k CROSS JOIN LATERAL ${TASK_BY_KEY}`}
      ${TASK_JOINS}
    ) p
  )`;
}

// One statement per view, sort field and direction; the filtered ones take the filters as $6 to $10 (filterParams).
// `first`: the statements for offset 0, which read their rows directly (columnsCte); $5 is still
// passed, and is 0.
function columnPages(filter: string | null, first = false) {
  return Object.fromEntries(
    TASK_VIEWS.map((view) => [
      view,
      Object.fromEntries(
        SORT_FIELDS.map((sortBy) => [
          sortBy,
          Object.fromEntries(
            (["asc", "desc"] as const).map((dir) => [
              dir,
              workspaceReadStatement(
                `column_page_${first ? "first_" : ""}${filter ? "filtered_" : ""}${view === "full" ? "" : `${view}_`}${sortBy}_${dir}`,
                `${columnsCte(view === "full" ? TASK : CARD, sortBy, dir === "asc" ? "ASC" : "DESC", "$4", first ? "0" : "$5", filter)}
                SELECT json_build_object('items', items, 'total', total, 'has_more', $5 + n < total)::text FROM pages`,
              ),
            ]),
          ),
        ]),
      ),
    ]),
  ) as Record<TaskView, Record<SortField, Record<"asc" | "desc", Statement>>>;
}

const COLUMN_PAGE = columnPages(null);
const FILTERED_COLUMN_PAGE = columnPages("$6");
const FIRST_COLUMN_PAGE = columnPages(null, true);
const FIRST_FILTERED_COLUMN_PAGE = columnPages("$6", true);

// $4 is the columns' titles, in the order of their keys in $3; $5 the page size.
// $6 to $10, in the filtered one, the filters (filterParams).
function boardStatement(name: string, filter: string | null) {
  return workspaceReadStatement(
    name,
    `${columnsCte(CARD, "position", "ASC", "$5", "0", filter)}
  SELECT json_build_object('columns', json_agg(json_build_object(
           'key', pages.key, 'title', ($4::text[])[pages.ord], 'total', pages.total,
           'has_more', pages.n < pages.total, 'items', pages.items) ORDER BY pages.ord),
         'cursor', (SELECT COALESCE(max(h.last_id), 0)::text FROM workspace_event_heads h WHERE h.workspace_id = $1))::text
  FROM pages`,
  );
}

const BOARD = boardStatement("board_first_pages", null);
const FILTERED_BOARD = boardStatement("board_first_pages_filtered", "$6");

// $4 project id or null, $5 title part or null, $6 page size, $7 offset. Each column is read on its
// position index and stops after offset + limit + 1 matches, so the work follows the page, not
// the workspace (when matches are sparse, the scan goes on until it has found enough of them).
// No total: that would mean finding every match; `has_more` comes from the one extra row.
const TASK_SEARCH = workspaceReadStatement(
  "task_search",
  `SELECT json_build_object(
     'items', COALESCE(json_agg(${TASK} ORDER BY k.rn) FILTER (WHERE k.rn <= $6::int), '[]'::json),
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
   CROSS JOIN LATERAL ${TASK_BY_KEY}
   ${TASK_JOINS}`,
);

const TASKS_BY_ID = statement(
  "tasks_by_id",
  `SELECT COALESCE(json_agg(${TASK}), '[]'::json)::text AS body
   FROM tasks t ${TASK_JOINS}
   WHERE t.workspace_id = $1 AND t.id = ANY($2::text[])`,
);
