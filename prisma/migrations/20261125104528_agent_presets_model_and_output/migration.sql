-- AlterTable
ALTER TABLE "agent_profiles" ADD COLUMN     "model" TEXT,
ADD COLUMN     "preset" TEXT,
ADD COLUMN     "system_prompt" TEXT;

-- AlterTable
ALTER TABLE "task_runs" ADD COLUMN     "model" TEXT,
ADD COLUMN     "no_output" BOOLEAN NOT NULL DEFAULT false;
