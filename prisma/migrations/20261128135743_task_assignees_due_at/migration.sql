-- AlterTable
ALTER TABLE "tasks" ADD COLUMN     "due_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "workspaces" ADD COLUMN     "auto_start_assigned" BOOLEAN NOT NULL DEFAULT true;

-- CreateTable
CREATE TABLE "task_assignees" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "task_id" TEXT NOT NULL,
    "user_id" TEXT,
    "agent_profile_id" TEXT,
    "position" INTEGER NOT NULL DEFAULT 0,
    "start_pending" BOOLEAN NOT NULL DEFAULT false,
    "assigned_by_token_id" TEXT,
    "assigned_by_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "task_assignees_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "task_assignees_workspace_id_user_id_task_id_idx" ON "task_assignees"("workspace_id", "user_id", "task_id");

-- CreateIndex
CREATE INDEX "task_assignees_workspace_id_agent_profile_id_task_id_idx" ON "task_assignees"("workspace_id", "agent_profile_id", "task_id");

-- CreateIndex
CREATE UNIQUE INDEX "task_assignees_task_id_user_id_key" ON "task_assignees"("task_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "task_assignees_task_id_agent_profile_id_key" ON "task_assignees"("task_id", "agent_profile_id");

-- CreateIndex
CREATE INDEX "tasks_workspace_id_status_due_at_id_idx" ON "tasks"("workspace_id", "status", "due_at", "id");

-- AddForeignKey
ALTER TABLE "task_assignees" ADD CONSTRAINT "task_assignees_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "task_assignees" ADD CONSTRAINT "task_assignees_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "task_assignees" ADD CONSTRAINT "task_assignees_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "task_assignees" ADD CONSTRAINT "task_assignees_agent_profile_id_fkey" FOREIGN KEY ("agent_profile_id") REFERENCES "agent_profiles"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A row names a person or an agent profile, never both, never neither.
ALTER TABLE "task_assignees" ADD CONSTRAINT "task_assignees_one_assignee" CHECK (("user_id" IS NULL) <> ("agent_profile_id" IS NULL));

-- The new reaction starts every existing workspace at its log's head: assignments made before it
-- existed start nothing.
INSERT INTO "reaction_cursors" ("reaction", "workspace_id", "cursor")
SELECT 'start-assigned-agents', h.workspace_id, h.last_id
FROM "workspace_event_heads" h;
