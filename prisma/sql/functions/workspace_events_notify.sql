-- Trigger function of "workspace_events" (workspace_events_notify, AFTER INSERT FOR EACH STATEMENT):
-- wakes the event streams (lib/events/wake.ts) of every workspace a statement wrote events for.
-- NOTIFY is delivered at commit, and not at all on rollback, so a stream never reads too early.
CREATE OR REPLACE FUNCTION workspace_events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('taskboard_events', w.workspace_id) FROM (SELECT DISTINCT workspace_id FROM added) w;
  RETURN NULL;
END $$;
