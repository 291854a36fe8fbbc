-- Recomputes the task_board_extras rows of the given tasks: the JSON of their open questions and of
-- their newest 10 runs, and their latest run's status, error and trigger. lib/tasks/load-tasks.ts
-- serves this JSON as it is (tests/api/contracts.test.ts holds it to lib/tasks/schemas.ts and
-- lib/questions/schemas.ts), so a change to either record that this function's output must follow
-- needs a migration from this file AND a refresh of every row under it.
--
-- A question's "task_title" is stored as null and filled in when a page is read, so renaming a task
-- does not touch this table (and a rename never waits for, or deadlocks with, a run's writer).
-- A run's JSON is every column of task_runs but workspace_id and created_at, timestamps formatted as
-- the API serves them (taskboard_iso), so a later served column of task_runs (named as the API
-- names the field) needs no change here, only a refresh of the rows.
CREATE OR REPLACE FUNCTION "task_board_extras_refresh"(task_ids TEXT[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- Rows are created and locked first, in id order, and computed after: each statement of this
  -- (volatile) function sees what committed before it started, so a writer that waited here for
  -- another writer of the same task sees that one's runs and questions too.
  INSERT INTO "task_board_extras" ("task_id")
  SELECT "id" FROM "tasks" WHERE "id" = ANY(task_ids) ORDER BY "id"
  ON CONFLICT DO NOTHING;
  PERFORM 1 FROM "task_board_extras" WHERE "task_id" = ANY(task_ids) ORDER BY "task_id" FOR UPDATE;
  UPDATE "task_board_extras" e SET
    "open_questions" = (
      SELECT json_agg(json_build_object(
               'id', q."id", 'workspace_id', q."workspace_id", 'task_id', q."task_id", 'task_title', NULL::text,
               'content', q."content", 'context', q."context", 'options', q."options", 'answer', q."answer",
               'status', q."status", 'priority', q."priority", 'execution_id', q."execution_id",
               'created_at', taskboard_iso(q."created_at"),
               'answered_at', taskboard_iso(q."answered_at"),
               'answered_by', q."answered_by", 'answered_via', q."answered_via")
             ORDER BY q."created_at", q."id")
      FROM "questions" q WHERE q."task_id" = e."task_id" AND q."status" = 'open'),
    "runs" = (
      SELECT json_agg(
               ((to_jsonb(r) - ARRAY['workspace_id', 'created_at'])
                 || jsonb_build_object(
                      'started_at', taskboard_iso(r."started_at"),
                      'finished_at', taskboard_iso(r."finished_at")))::json
             ORDER BY r."created_at" DESC, r."id")
      FROM (SELECT * FROM "task_runs" r0 WHERE r0."task_id" = e."task_id" ORDER BY r0."created_at" DESC, r0."id" LIMIT 10) r),
    ("latest_run_status", "latest_run_error", "latest_run_trigger") = (
      SELECT r1."status", r1."error_message", r1."trigger" FROM "task_runs" r1
      WHERE r1."task_id" = e."task_id" ORDER BY r1."created_at" DESC, r1."id" LIMIT 1)
  WHERE e."task_id" = ANY(task_ids);
END
$$;
