-- AlterTable
ALTER TABLE "workspace_repositories" ADD COLUMN     "credential_sealed" TEXT,
ADD COLUMN     "credential_set_at" TIMESTAMPTZ(3),
ADD COLUMN     "credential_type" TEXT,
ADD COLUMN     "credential_username" TEXT;
