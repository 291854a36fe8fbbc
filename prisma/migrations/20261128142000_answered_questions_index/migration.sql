-- CreateIndex
CREATE INDEX "questions_workspace_id_status_answered_at_id_idx" ON "questions"("workspace_id", "status", "answered_at" DESC, "id" DESC);
