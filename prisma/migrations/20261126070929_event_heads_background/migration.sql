-- The background workers (reactions, webhook delivery) compare their cursors with the newest event
-- they read, not with the log's head: stream-only events (execution.log, runner.updated) no longer
-- make them claim a cursor only to skip those events. Written by hand from `npm run db:diff --
-- event_heads_background`, with existing heads starting where they are (a worker behind them
-- catches up once, as before).

-- AlterTable
ALTER TABLE "workspace_event_heads" ADD COLUMN     "last_background_id" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "pruned_background_through" BIGINT NOT NULL DEFAULT 0;

UPDATE "workspace_event_heads" SET "last_background_id" = "last_id", "pruned_background_through" = "pruned_through";
