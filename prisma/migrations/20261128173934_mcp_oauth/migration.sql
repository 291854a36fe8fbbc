-- AlterEnum
ALTER TYPE "token_kind" ADD VALUE 'mcp_access';

-- AlterTable
ALTER TABLE "auth_tokens" ADD COLUMN     "audience" TEXT;

-- CreateTable
CREATE TABLE "oauth_records" (
    "key" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "grant_id" TEXT,
    "account_id" TEXT,
    "uid" TEXT,
    "expires_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_records_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "oauth_records_grant_id_idx" ON "oauth_records"("grant_id");

-- CreateIndex
CREATE INDEX "oauth_records_account_id_idx" ON "oauth_records"("account_id");

-- CreateIndex
CREATE INDEX "oauth_records_uid_idx" ON "oauth_records"("uid");

-- CreateIndex
CREATE INDEX "oauth_records_expires_at_idx" ON "oauth_records"("expires_at");
