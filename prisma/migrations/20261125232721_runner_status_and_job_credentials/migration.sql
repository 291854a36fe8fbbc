-- AlterTable
ALTER TABLE "runners" ADD COLUMN     "announced_online" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "job_credentials" (
    "id" TEXT NOT NULL,
    "execution_id" TEXT NOT NULL,
    "installation_id" INTEGER NOT NULL,
    "token_sealed" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ended_at" TIMESTAMPTZ(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3),

    CONSTRAINT "job_credentials_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "job_credentials_execution_id_idx" ON "job_credentials"("execution_id");

-- CreateIndex
CREATE INDEX "job_credentials_ended_at_idx" ON "job_credentials"("ended_at");
