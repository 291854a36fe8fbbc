import { agentSilenceSeconds, runnerLeaseSeconds } from "@/lib/config";
import { runnersRequireSandbox } from "@/lib/sandbox/mode";

// A task as the API writes it, in SQL: the one serializer of a task, shared by the board's reads
// (lib/tasks/load-tasks.ts) and the event log's insert (lib/events/record-events.ts), which embeds
// the task as its transaction left it. It sits below both so neither imports the other.

/** SQL for one task's JSON (or NULL), for statements that embed it, such as the event log's insert. */
export function taskJsonSql(workspaceIdExpr: string, taskIdExpr: string): string {
  return `(SELECT ${taskJson(workspaceIdExpr)} FROM tasks t ${TASK_JOINS} WHERE t.workspace_id = ${workspaceIdExpr} AND t.id = ${taskIdExpr})`;
}

// ---------------------------------------------------------------- SQL

// taskboard_iso: prisma/sql/functions/taskboard_iso.sql, the one definition of the format.
const iso = (expr: string) => `taskboard_iso(${expr})`;

// The execution of the task's latest run, found by that run's id (the first of the stored runs)
// and nothing else, so that the plan is a probe on the unique task_run_id whatever the statistics
// say; its status is tested after. Looked up by the task and status instead, a generic plan walked
// executions(status, created_at) from the newest queued run of any workspace until it met the
// card's (docs/PERFORMANCE.md, "Cards of queued runs"). The id is a sub-select so that the stored
// runs' JSON is read once per card, not once per row when a small table is scanned.
const LATEST_EXECUTION = "executions x WHERE x.task_run_id = (SELECT e.runs -> 0 ->> 'id')";

// A running run's last word, so its card can say "no output for N min": only for tasks whose run is running.
const LATEST_RUN_ACTIVITY = `CASE WHEN e.latest_run_status = 'running' THEN (SELECT CASE WHEN x.status = 'running' THEN ${iso("COALESCE(x.last_activity_at, x.started_at)")} END
    FROM ${LATEST_EXECUTION}) END AS latest_run_activity_at,
  CASE WHEN e.latest_run_status = 'running' THEN ${agentSilenceSeconds()} END AS latest_run_silence_seconds`;

// A queued run's reason to wait for a runner (docs/runners.md), so its card can say it: only for
// tasks whose run is queued; the function reads the (small) runners table.
// A profile without labels gets its workspace's answer, the same for every such card, so that is
// asked once per statement: a sub-select on the statement's workspace alone, which PostgreSQL runs
// on first use and keeps (an InitPlan). `workspace` must be that: a parameter, not a column.
const latestRunWaiting = (workspace: string) => {
  const waiting = (ws: string, profile: string) =>
    `taskboard_waiting_for_runner(${ws}, ${profile}, ${runnerLeaseSeconds()}, ${runnersRequireSandbox()})`;
  return `CASE WHEN e.latest_run_status = 'queued' THEN (SELECT CASE WHEN x.status <> 'queued' THEN NULL
      WHEN COALESCE(x.agent_profile -> 'labels', '[]'::jsonb) = '[]'::jsonb THEN (SELECT ${waiting(workspace, "'{}'::jsonb")})
      ELSE ${waiting("x.workspace_id", "x.agent_profile")} END
    FROM ${LATEST_EXECUTION}) END AS latest_run_waiting_for_runner`;
};

// The task's assignees in the order given, as TaskAssignee ({kind, id, name}): one scan of
// task_assignees(task_id, position, id) per task, which gives the order, and row_to_json for the
// same bytes-per-card reason as below. The names are looked up one assignee at a time on purpose:
// as joins, PostgreSQL's plan built a hash of agent_profiles and sorted, for every card, and that
// was about 40 % of the board's database time (docs/PERFORMANCE.md, "A card's assignees").
// Only for tasks that have any (tasks.has_assignees): the look-up was about a sixth of the board's
// time on PGlite with a quarter of the tasks assigned (docs/PERFORMANCE.md, "Cards without assignees").
const ASSIGNEES = `CASE WHEN NOT t.has_assignees THEN '[]'::json ELSE (SELECT COALESCE(json_agg(row_to_json(s)), '[]'::json) FROM (
    SELECT CASE WHEN a.user_id IS NULL THEN 'agent' ELSE 'user' END AS kind, COALESCE(a.user_id, a.agent_profile_id) AS id,
      CASE WHEN a.user_id IS NULL THEN (SELECT ap.name FROM agent_profiles ap WHERE ap.id = a.agent_profile_id)
        ELSE (SELECT COALESCE(u.display_name, u.username) FROM users u WHERE u.id = a.user_id) END AS name
    FROM task_assignees a WHERE a.task_id = t.id ORDER BY a.position, a.id) s) END AS assignees`;

// A task as TaskResponse. Aliases: `t` the task, `pr` its project, `e` its task_board_extras row
// (from TASK_JOINS). That row holds the open questions' and the newest runs' JSON, written by
// triggers (migration task_board_extras) in the records' own shape (lib/tasks/schemas.ts; the
// strict-parse test tests/api/contracts.test.ts holds both to it); a question's task_title is
// stored as null and set here, so renaming a task needs no write to it. The function that writes it
// is prisma/sql/functions/task_board_extras_refresh.sql (docs/sql-functions.md).
// row_to_json, not json_build_object: the latter writes `"key" : value, ` (three bytes more per field),
// which was ~7% of a board response; the JSON is the same, field for field and in the same order.
/** `workspace`: the statement's workspace id, a parameter (see latestRunWaiting). */
export const taskJson = (workspace: string) => `(SELECT row_to_json(j) FROM (SELECT
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
  COALESCE(json_array_length(e.open_questions), 0) AS open_question_count,
  COALESCE(e.runs, '[]'::json) AS task_runs,
  e.latest_run_status, e.latest_run_error, e.latest_run_trigger,
  ${LATEST_RUN_ACTIVITY},
  ${latestRunWaiting(workspace)},
  COALESCE(e.blocked_by, '{}') AS blocked_by, COALESCE(e.blocks, '{}') AS blocks, COALESCE(e.open_blockers, 0) AS open_blocker_count,
  ${ASSIGNEES}, ${iso("t.due_at")} AS due_at,
  ${iso("t.created_at")} AS created_at, ${iso("t.updated_at")} AS updated_at, ${iso("t.done_at")} AS done_at) j)`;

// A task as its board card (TaskCard, lib/tasks/card-schemas.ts), with the same aliases: taskJson's
// expressions for the fields a card shows, and the open questions as their count. No runs and no
// questions in full, so no per-question JSON is built here: a card is about a fifth of a task.
export const cardJson = (workspace: string) => `(SELECT row_to_json(j) FROM (SELECT
  t.id, t.number, t.title, t.status, t.position, t.priority, COALESCE(t.tags, '{}') AS tags,
  t.project_id, pr.name AS project_name,
  CASE WHEN t.phase BETWEEN 1 AND cardinality(pr.phases) THEN pr.phases[t.phase] END AS phase_name,
  t.blocked OR e.open_questions IS NOT NULL AS blocked,
  COALESCE(json_array_length(e.open_questions), 0) AS open_question_count,
  COALESCE(e.open_blockers, 0) AS open_blocker_count,
  t.pr_url, t.pr_state, t.checks, t.has_merge_conflict,
  e.latest_run_status, e.latest_run_error,
  ${LATEST_RUN_ACTIVITY},
  ${latestRunWaiting(workspace)},
  ${ASSIGNEES}, ${iso("t.due_at")} AS due_at) j)`;

// One probe per task for everything beyond its own row: the three sub-selects per task that this
// replaced were half of PostgreSQL's time for a page (docs/PERFORMANCE.md).
//
// A probe per task ON PURPOSE, whatever the statistics say: the pages are named statements with a
// generic plan, whose LIMIT is a parameter the planner guesses at a tenth of the column. With one
// large workspace that guess was 2,000 rows, and the plan hashed the whole of task_board_extras
// (and of projects) for a 20-task page: 13 ms for a column page and 58 ms for the board, against
// about 1 ms (docs/PERFORMANCE.md, "Plans that do not depend on the number of workspaces").
// `OFFSET 0` keeps each sub-select from being flattened into a join the planner may hash.
export const TASK_JOINS = `
  LEFT JOIN LATERAL (SELECT p.name, p.phases FROM projects p WHERE p.id = t.project_id OFFSET 0) pr ON true
  LEFT JOIN LATERAL (SELECT b.* FROM task_board_extras b WHERE b.task_id = t.id OFFSET 0) e ON true`;
