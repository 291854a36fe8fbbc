-- CreateTable
CREATE TABLE "reaction_cursors" (
    "reaction" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "cursor" BIGINT NOT NULL DEFAULT 0,
    "lease_until" TIMESTAMPTZ(3),
    "lease_token" TEXT,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "last_error_at" TIMESTAMPTZ(3),
    "last_error_event_id" BIGINT,
    "processed_at" TIMESTAMPTZ(3),

    CONSTRAINT "reaction_cursors_pkey" PRIMARY KEY ("reaction","workspace_id")
);

-- CreateIndex
CREATE INDEX "reaction_cursors_workspace_id_idx" ON "reaction_cursors"("workspace_id");

-- AddForeignKey
ALTER TABLE "reaction_cursors" ADD CONSTRAINT "reaction_cursors_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The reactions that replace calls made after commit (issue #22) start every existing workspace at
-- its head: what happened before this migration was already reacted to by those calls.
INSERT INTO "reaction_cursors" ("reaction", "workspace_id", "cursor")
SELECT r.name, h.workspace_id, h.last_id
FROM "workspace_event_heads" h
CROSS JOIN (VALUES ('board-automation'), ('start-unblocked'), ('github-after-run'), ('fix-conflicts')) AS r(name);
