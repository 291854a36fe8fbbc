-- CreateIndex
CREATE INDEX "answer_keys_expires_at_idx" ON "answer_keys"("expires_at");

-- CreateIndex
CREATE INDEX "auth_tokens_kind_expires_at_idx" ON "auth_tokens"("kind", "expires_at");
