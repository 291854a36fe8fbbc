// Seeds a workspace of the benchmark straight into the database: `perColumn` tasks in each of the
// five columns (equal titles and created_at values on purpose, so sorts need their id tie-break),
// 20 projects with phases linked from every third task, a question on every tenth task (half of
// them open), three runs on every fifth, and the workspace's owner assigned to every fourth.
// Plain SQL, run the same way on PostgreSQL and PGlite.

/** @param {string} workspaceId a uuid from the API  @param {number} perColumn */
export function seedSql(workspaceId, perColumn) {
  const ws = quote(workspaceId);
  const total = perColumn * 5;
  return `
INSERT INTO projects (id, workspace_id, name, phases, updated_at)
SELECT gen_random_uuid()::text, ${ws}, 'Project ' || g, ARRAY['Design','Build','Test','Ship'], now()
FROM generate_series(1, 20) g;

-- Numbers given here, not by the trigger: it updates the workspace's row once per task, and in one
-- statement those updates make a chain of row versions that each next one walks, so 100,000 tasks
-- took minutes (5,000: 0.2 s, 20,000: 7 s). The workspace is new, so its numbers start at 1. The
-- DISABLE holds its lock on tasks until this seed commits.
ALTER TABLE tasks DISABLE TRIGGER tasks_assign_number;
WITH p AS (SELECT array_agg(id ORDER BY id) AS ids FROM projects WHERE workspace_id = ${ws})
INSERT INTO tasks (id, workspace_id, number, title, description, status, position, priority, tags,
                   project_id, phase, created_at, updated_at, done_at, has_assignees)
SELECT gen_random_uuid()::text, ${ws}, g,
       'Task ' || (g % 1000),
       'Seeded task number ' || g || '. ' || repeat('Some description text. ', 8),
       (ARRAY['backlog','todo','in_progress','in_review','done'])[(g - 1) / ${perColumn} + 1],
       ((g - 1) % ${perColumn}) + 1,
       'p' || (g % 5),
       ARRAY['bench', 'tag' || (g % 7)],
       CASE WHEN g % 3 = 0 THEN p.ids[g % 20 + 1] END,
       CASE WHEN g % 3 = 0 THEN g % 4 + 1 END,
       now() - make_interval(secs => g / 10),
       now(),
       CASE WHEN (g - 1) / ${perColumn} = 4 THEN now() END,
       ((g - 1) % ${perColumn} + 1) % 4 = 1 -- the tasks assigned below
FROM generate_series(1, ${total}) g, p;
UPDATE workspaces SET task_count = ${total} WHERE id = ${ws};
ALTER TABLE tasks ENABLE TRIGGER tasks_assign_number;

INSERT INTO questions (id, workspace_id, task_id, content, context, options, status, answer, priority, answered_at)
SELECT gen_random_uuid()::text, ${ws}, t.id, 'Which approach for ' || t.title || '?', 'Context',
       '["A", "B"]'::jsonb,
       CASE WHEN t.position::int % 20 = 0 THEN 'open' ELSE 'answered' END,
       CASE WHEN t.position::int % 20 = 0 THEN NULL ELSE 'A' END,
       2,
       CASE WHEN t.position::int % 20 = 0 THEN NULL ELSE now() END
FROM tasks t WHERE t.workspace_id = ${ws} AND t.position::int % 10 = 0;

INSERT INTO task_runs (id, task_id, workspace_id, attempt_number, status, trigger, session_id, exit_code,
                       error_message, started_at, finished_at, duration_seconds, created_at)
SELECT gen_random_uuid()::text, t.id, ${ws}, a,
       CASE WHEN a = 3 THEN 'failed' ELSE 'succeeded' END,
       CASE WHEN a = 2 THEN 'schedule' ELSE 'manual' END,
       'tb-' || a, CASE WHEN a = 3 THEN 1 ELSE 0 END,
       CASE WHEN a = 3 THEN 'exit status 1' END,
       now() - make_interval(mins => 10 - a), now() - make_interval(mins => 9 - a), 60,
       now() - make_interval(mins => 10 - a)
FROM tasks t CROSS JOIN generate_series(1, 3) a
WHERE t.workspace_id = ${ws} AND t.position::int % 5 = 0;

INSERT INTO task_assignees (id, workspace_id, task_id, user_id, position)
SELECT gen_random_uuid()::text, ${ws}, t.id, m.user_id, 0
FROM tasks t JOIN memberships m ON m.workspace_id = t.workspace_id AND m.role = 'owner'
WHERE t.workspace_id = ${ws} AND t.position::int % 4 = 1;
`;
}

/**
 * Queued runs on the first `count` tasks of the workspace's To do column (seeded by seedSql), that
 * no runner takes: the workspace chose no runners (Settings → Runners), so each card says why it
 * waits, as a board of agents' work does when every slot is busy or no runner is online.
 * @param {string} workspaceId  @param {number} count
 */
export function queuedRunsSql(workspaceId, count) {
  const ws = quote(workspaceId);
  return `
INSERT INTO workspace_runner_choices (workspace_id, runner_ids, updated_at) VALUES (${ws}, '{}', now());
WITH t AS (SELECT id FROM tasks WHERE workspace_id = ${ws} AND status = 'todo' ORDER BY position LIMIT ${Number(count)}),
r AS (INSERT INTO task_runs (id, task_id, workspace_id, attempt_number, status, trigger)
      SELECT gen_random_uuid()::text, t.id, ${ws}, 4, 'queued', 'manual' FROM t RETURNING id, task_id)
INSERT INTO executions (id, workspace_id, task_id, task_run_id, session_name, status, agent_profile)
SELECT gen_random_uuid()::text, ${ws}, r.task_id, r.id, 'tb-4', 'queued', '{"name": "bench", "labels": []}'::jsonb FROM r;
`;
}

// One at a time: VACUUM refuses to run inside the implicit transaction of a multi-statement query.
export const ANALYZE_STATEMENTS = [
  "tasks",
  "projects",
  "questions",
  "task_runs",
  "task_board_extras",
  "task_column_counts",
  "task_assignees",
  "executions",
].map((table) => `VACUUM ANALYZE ${table}`);

function quote(text) {
  if (!/^[0-9a-f-]+$/i.test(text)) throw new Error(`unexpected workspace id ${text}`);
  return `'${text}'`;
}
