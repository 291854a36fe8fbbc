-- CreateTable
CREATE TABLE "task_board_extras" (
    "task_id" TEXT NOT NULL,
    "open_questions" JSON,
    "runs" JSON,
    "latest_run_status" TEXT,
    "latest_run_error" TEXT,
    "latest_run_trigger" TEXT,

    CONSTRAINT "task_board_extras_pkey" PRIMARY KEY ("task_id")
);

-- Kept by hand (Prisma does not model triggers). The JSON here is the board's JSON of a question
-- and of a run (lib/tasks/load-tasks.ts reads it as it is): a change to either record needs a
-- migration that replaces this function and refreshes every row.
--
-- A question's "task_title" is stored as null and filled in when a page is read, so renaming a task
-- does not touch this table (and a rename never waits for, or deadlocks with, a run's writer).
CREATE FUNCTION "task_board_extras_refresh"(task_ids TEXT[]) RETURNS void LANGUAGE plpgsql AS $$
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
               'status', q."status", 'priority', q."priority",
               'created_at', to_char(q."created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
               'answered_at', to_char(q."answered_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
             ORDER BY q."created_at", q."id")
      FROM "questions" q WHERE q."task_id" = e."task_id" AND q."status" = 'open'),
    "runs" = (
      SELECT json_agg(json_build_object(
               'id', r."id", 'task_id', r."task_id", 'session_id', r."session_id", 'attempt_number', r."attempt_number",
               'status', r."status", 'exit_code', r."exit_code", 'error_message', r."error_message",
               'started_at', to_char(r."started_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
               'finished_at', to_char(r."finished_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
               'duration_seconds', r."duration_seconds", 'trigger', r."trigger")
             ORDER BY r."created_at" DESC, r."id")
      FROM (SELECT * FROM "task_runs" r0 WHERE r0."task_id" = e."task_id" ORDER BY r0."created_at" DESC, r0."id" LIMIT 10) r),
    ("latest_run_status", "latest_run_error", "latest_run_trigger") = (
      SELECT r1."status", r1."error_message", r1."trigger" FROM "task_runs" r1
      WHERE r1."task_id" = e."task_id" ORDER BY r1."created_at" DESC, r1."id" LIMIT 1)
  WHERE e."task_id" = ANY(task_ids);
END
$$;

-- One refresh per statement, of every task the statement touched (before and after, should a
-- question or run change task).
CREATE FUNCTION "task_board_extras_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  touched TEXT[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    touched := ARRAY(SELECT DISTINCT "task_id" FROM new_rows);
  ELSIF TG_OP = 'DELETE' THEN
    touched := ARRAY(SELECT DISTINCT "task_id" FROM old_rows);
  ELSE
    touched := ARRAY(SELECT "task_id" FROM new_rows UNION SELECT "task_id" FROM old_rows);
  END IF;
  -- A task's delete cascades here once per task, mostly with no rows.
  IF cardinality(touched) > 0 THEN
    PERFORM "task_board_extras_refresh"(touched);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER "task_runs_board_extras_insert" AFTER INSERT ON "task_runs"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "task_board_extras_apply"();
CREATE TRIGGER "task_runs_board_extras_update" AFTER UPDATE ON "task_runs"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "task_board_extras_apply"();
CREATE TRIGGER "task_runs_board_extras_delete" AFTER DELETE ON "task_runs"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "task_board_extras_apply"();
CREATE TRIGGER "questions_board_extras_insert" AFTER INSERT ON "questions"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "task_board_extras_apply"();
CREATE TRIGGER "questions_board_extras_update" AFTER UPDATE ON "questions"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "task_board_extras_apply"();
CREATE TRIGGER "questions_board_extras_delete" AFTER DELETE ON "questions"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "task_board_extras_apply"();

-- The row of a deleted task goes with it (the refresh above never creates one for a task that is
-- gone, whichever of the two runs first).
CREATE FUNCTION "task_board_extras_forget"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "task_board_extras" WHERE "task_id" IN (SELECT "id" FROM old_rows);
  RETURN NULL;
END
$$;

CREATE TRIGGER "tasks_board_extras_delete" AFTER DELETE ON "tasks"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "task_board_extras_forget"();

SELECT "task_board_extras_refresh"(ARRAY(SELECT "task_id" FROM "task_runs" UNION SELECT "task_id" FROM "questions"));
