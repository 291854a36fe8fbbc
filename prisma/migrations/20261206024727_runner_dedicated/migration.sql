-- AlterTable
ALTER TABLE "runners" ADD COLUMN     "dedicated" BOOLEAN NOT NULL DEFAULT false;
