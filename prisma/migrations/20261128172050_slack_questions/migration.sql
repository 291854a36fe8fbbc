-- AlterTable
ALTER TABLE "users" ADD COLUMN     "email" TEXT,
ADD COLUMN     "slack_user_id" TEXT;

-- AlterTable
ALTER TABLE "workspaces" ADD COLUMN     "slack_channel" TEXT;

-- CreateTable
CREATE TABLE "slack_question_messages" (
    "question_id" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "ts" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "slack_question_messages_pkey" PRIMARY KEY ("question_id")
);

-- CreateTable
CREATE TABLE "slack_event_receipts" (
    "event_id" TEXT NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "slack_event_receipts_pkey" PRIMARY KEY ("event_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "slack_question_messages_channel_ts_key" ON "slack_question_messages"("channel", "ts");

-- CreateIndex
CREATE INDEX "slack_event_receipts_received_at_idx" ON "slack_event_receipts"("received_at");

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

-- CreateIndex
CREATE UNIQUE INDEX "users_slack_user_id_key" ON "users"("slack_user_id");

-- AddForeignKey
ALTER TABLE "slack_question_messages" ADD CONSTRAINT "slack_question_messages_question_id_fkey" FOREIGN KEY ("question_id") REFERENCES "questions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The new reaction starts every existing workspace at its log's head.
INSERT INTO "reaction_cursors" ("reaction", "workspace_id", "cursor")
SELECT 'slack-questions', h.workspace_id, h.last_id
FROM "workspace_event_heads" h;
