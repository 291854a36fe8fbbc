-- Trigger function of "workspace_events" (workspace_events_notify, AFTER INSERT FOR EACH STATEMENT):
-- wakes the event streams (lib/events/wake.ts) of every workspace a statement wrote events for.
-- NOTIFY is delivered at commit, and not at all on rollback, so a stream never reads too early.
-- A statement that wrote only stream-only events (execution.log, a run's live log; runner.updated,
-- a runner coming online or going away) says so with " log" after the workspace id: those wake the
-- streams, not the background workers (STREAM_ONLY_EVENT_TYPES in lib/events/event-types.ts).
CREATE OR REPLACE FUNCTION workspace_events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('taskboard_events', w.workspace_id || CASE WHEN w.log_only THEN ' log' ELSE '' END)
  FROM (SELECT workspace_id, bool_and(type IN ('execution.log', 'runner.updated')) AS log_only FROM added GROUP BY workspace_id) w;
  RETURN NULL;
END $$;
