-- CreateTable
CREATE TABLE "workspace_events" (
    "id" BIGSERIAL NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "task_id" TEXT,
    "type" TEXT NOT NULL,
    "actor" JSON NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "data" JSON NOT NULL,

    CONSTRAINT "workspace_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "workspace_event_heads" (
    "workspace_id" TEXT NOT NULL,
    "last_id" BIGINT NOT NULL DEFAULT 0,
    "pruned_through" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "workspace_event_heads_pkey" PRIMARY KEY ("workspace_id")
);

-- CreateIndex
CREATE INDEX "workspace_events_workspace_id_id_idx" ON "workspace_events"("workspace_id", "id");

-- CreateIndex
CREATE INDEX "workspace_events_task_id_id_idx" ON "workspace_events"("task_id", "id");

-- AddForeignKey
ALTER TABLE "workspace_events" ADD CONSTRAINT "workspace_events_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workspace_event_heads" ADD CONSTRAINT "workspace_event_heads_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Wakes the event streams (lib/events/wake.ts) of every workspace a statement wrote events for.
-- NOTIFY is delivered at commit, and not at all on rollback, so a stream never reads too early.
CREATE FUNCTION workspace_events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('taskboard_events', w.workspace_id) FROM (SELECT DISTINCT workspace_id FROM added) w;
  RETURN NULL;
END $$;

CREATE TRIGGER workspace_events_notify AFTER INSERT ON "workspace_events"
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION workspace_events_notify();
