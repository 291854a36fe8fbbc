-- AlterTable
ALTER TABLE "executions" ADD COLUMN     "lease_expires_at" TIMESTAMPTZ(3),
ADD COLUMN     "runner_id" TEXT,
ADD COLUMN     "runner_name" TEXT;

-- CreateTable
CREATE TABLE "runners" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "capacity" INTEGER NOT NULL DEFAULT 2,
    "labels" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "token_hash" TEXT NOT NULL,
    "last_seen_at" TIMESTAMPTZ(3),
    "version" TEXT,
    "sandbox" TEXT,
    "created_by" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "runners_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "runners_token_hash_key" ON "runners"("token_hash");

-- CreateIndex
CREATE INDEX "runners_revoked_at_created_at_idx" ON "runners"("revoked_at", "created_at");

-- CreateIndex
CREATE INDEX "executions_runner_id_status_idx" ON "executions"("runner_id", "status");

-- AddForeignKey
ALTER TABLE "executions" ADD CONSTRAINT "executions_runner_id_fkey" FOREIGN KEY ("runner_id") REFERENCES "runners"("id") ON DELETE SET NULL ON UPDATE CASCADE;
