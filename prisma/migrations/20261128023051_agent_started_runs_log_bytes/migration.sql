-- AlterTable
ALTER TABLE "executions" ADD COLUMN     "chain_depth" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "log_bytes" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "started_by_execution_id" TEXT;
