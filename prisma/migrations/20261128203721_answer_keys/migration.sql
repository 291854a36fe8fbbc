-- CreateTable
CREATE TABLE "answer_keys" (
    "id" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "question_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "answer_keys_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "answer_keys_key_hash_key" ON "answer_keys"("key_hash");

-- CreateIndex
CREATE INDEX "answer_keys_question_id_idx" ON "answer_keys"("question_id");

-- CreateIndex
CREATE INDEX "answer_keys_user_id_idx" ON "answer_keys"("user_id");

-- AddForeignKey
ALTER TABLE "answer_keys" ADD CONSTRAINT "answer_keys_question_id_fkey" FOREIGN KEY ("question_id") REFERENCES "questions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "answer_keys" ADD CONSTRAINT "answer_keys_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
