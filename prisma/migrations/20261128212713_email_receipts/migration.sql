-- CreateTable
CREATE TABLE "email_receipts" (
    "message_id" TEXT NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "email_receipts_pkey" PRIMARY KEY ("message_id")
);

-- CreateIndex
CREATE INDEX "email_receipts_received_at_idx" ON "email_receipts"("received_at");
