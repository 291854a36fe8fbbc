-- Runs drive agent profiles (ACP or command): structured log entries replace line chunks, runs
-- record their agent and usage, and an agent's permission request is a question tied to its execution.

-- AlterTable
ALTER TABLE "executions" ADD COLUMN     "acp_session_id" TEXT,
ADD COLUMN     "acp_session_loaded" BOOLEAN,
ADD COLUMN     "agent_id" TEXT,
ADD COLUMN     "agent_profile" JSONB;

-- AlterTable
ALTER TABLE "questions" ADD COLUMN     "execution_id" TEXT,
ADD COLUMN     "permission_options" JSONB;

-- AlterTable
ALTER TABLE "task_runs" ADD COLUMN     "agent_id" TEXT,
ADD COLUMN     "agent_name" TEXT,
ADD COLUMN     "usage" JSONB;

-- CreateTable
CREATE TABLE "execution_log_entries" (
    "execution_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "type" TEXT NOT NULL,
    "update" JSONB NOT NULL,

    CONSTRAINT "execution_log_entries_pkey" PRIMARY KEY ("execution_id","seq")
);

-- The old logs are kept: each stored line becomes an `output` entry with the same number. Chunks
-- did not record which stream a line came from, so every old line is marked stdout.
INSERT INTO "execution_log_entries" ("execution_id", "seq", "at", "type", "update")
SELECT c."execution_id", c."first_line" + (l.n - 1)::int, c."created_at", 'output',
       jsonb_build_object('stream', 'stdout', 'text', l.line)
FROM "execution_log_chunks" c, unnest(string_to_array(c."content", E'\n')) WITH ORDINALITY AS l(line, n)
WHERE l.n <= c."line_count"
ON CONFLICT DO NOTHING;

-- DropTable
ALTER TABLE "execution_log_chunks" DROP CONSTRAINT "execution_log_chunks_execution_id_fkey";
DROP TABLE "execution_log_chunks";

-- CreateIndex
CREATE INDEX "questions_execution_id_idx" ON "questions"("execution_id");

-- AddForeignKey
ALTER TABLE "questions" ADD CONSTRAINT "questions_execution_id_fkey" FOREIGN KEY ("execution_id") REFERENCES "executions"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "execution_log_entries" ADD CONSTRAINT "execution_log_entries_execution_id_fkey" FOREIGN KEY ("execution_id") REFERENCES "executions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The board's card JSON (task_board_extras, see 20261122205830_task_board_extras) gains the run's
-- agent and usage and the question's execution_id. A run's JSON is now every column of task_runs
-- except these internal ones, with the timestamps formatted as the API serves them: a later
-- migration that adds a served column to task_runs (named as the API names the field) needs no
-- change here, only a refresh of the rows.
CREATE OR REPLACE FUNCTION "task_board_extras_refresh"(task_ids TEXT[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
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
               'created_at', to_char(q."created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
               'answered_at', to_char(q."answered_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
             ORDER BY q."created_at", q."id")
      FROM "questions" q WHERE q."task_id" = e."task_id" AND q."status" = 'open'),
    "runs" = (
      SELECT json_agg(
               ((to_jsonb(r) - ARRAY['workspace_id', 'created_at'])
                 || jsonb_build_object(
                      'started_at', to_char(r."started_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                      'finished_at', to_char(r."finished_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))::json
             ORDER BY r."created_at" DESC, r."id")
      FROM (SELECT * FROM "task_runs" r0 WHERE r0."task_id" = e."task_id" ORDER BY r0."created_at" DESC, r0."id" LIMIT 10) r),
    ("latest_run_status", "latest_run_error", "latest_run_trigger") = (
      SELECT r1."status", r1."error_message", r1."trigger" FROM "task_runs" r1
      WHERE r1."task_id" = e."task_id" ORDER BY r1."created_at" DESC, r1."id" LIMIT 1)
  WHERE e."task_id" = ANY(task_ids);
END
$$;

SELECT "task_board_extras_refresh"(ARRAY(SELECT "task_id" FROM "task_runs" UNION SELECT "task_id" FROM "questions"));
