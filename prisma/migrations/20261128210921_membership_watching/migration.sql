-- AlterTable
ALTER TABLE "memberships" ADD COLUMN     "watching" BOOLEAN NOT NULL DEFAULT false;
