-- CreateIndex
CREATE INDEX "tasks_workspace_id_status_position_id_idx" ON "tasks"("workspace_id", "status", "position", "id");
