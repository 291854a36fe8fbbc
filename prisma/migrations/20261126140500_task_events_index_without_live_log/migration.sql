-- A task's events without its runs' live log (execution.log, one row per run and log batch). Every
-- query that reads a task's events (its history, a reaction's "the event before") leaves the live
-- log out, but with it in the index they walked past every batch of every run of the task: 6 ms per
-- reaction on PGlite with 20 busy runs, growing with the log. Partial, so the live log's inserts no
-- longer maintain it either. Its queries say `type <> 'execution.log'` in their text (not as a
-- parameter), which is what lets the planner use it. Same name and columns: prisma/schema.prisma's
-- @@index([taskId, id]) still describes it.

-- DropIndex
DROP INDEX "workspace_events_task_id_id_idx";

-- CreateIndex
CREATE INDEX "workspace_events_task_id_id_idx" ON "workspace_events"("task_id", "id") WHERE "type" <> 'execution.log';
