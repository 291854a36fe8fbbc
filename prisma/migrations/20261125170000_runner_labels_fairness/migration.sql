-- The labels a profile requires of the runner that takes its runs (docs/runners.md, "Labels"); a
-- run keeps them in its agent_profile snapshot, which the claim reads.
ALTER TABLE "agent_profiles" ADD COLUMN     "labels" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- A workspace's own cap on its concurrent runs (null: none), and when it last got a runner's slot:
-- the claim serves workspaces round-robin, the one served longest ago first.
ALTER TABLE "workspaces" ADD COLUMN     "max_concurrent_runs" INTEGER,
ADD COLUMN     "run_slot_at" TIMESTAMPTZ(3);

-- The claim visits each workspace with queued runs (a skip scan on status, workspace_id) and takes
-- its oldest claimable one (created_at), and counts a workspace's started runs for its cap.
CREATE INDEX "executions_status_workspace_id_created_at_idx" ON "executions"("status", "workspace_id", "created_at");
