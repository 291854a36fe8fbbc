-- CreateIndex
CREATE INDEX "task_assignees_task_id_position_id_idx" ON "task_assignees"("task_id", "position", "id");
