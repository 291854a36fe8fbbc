import type { Db } from "@/lib/db/client";
import { startScheduler } from "@/lib/scheduler/scheduler";
import { startLeaseSweeper } from "@/lib/dispatch/expire-leases";
import { startEmbeddedRunner } from "@/lib/server/embedded-runner";
import { startJobTokenRevoker } from "@/lib/github/sync/revoke-job-tokens";

/**
 * At server start: the lease sweeper (only an expired lease ends a run), the revoker of ended
 * runs' GitHub tokens, the scheduler, and the
 * embedded runner, a child process like any other runner (lib/server/embedded-runner.ts). This
 * process never starts an agent itself. RUNNER_EMBEDDED=false: only runner processes started
 * elsewhere run agents.
 */
export async function startEngine(db: Db) {
  await startLeaseSweeper(db);
  // Ended runs' GitHub tokens are revoked after their transactions commit (docs/runners.md).
  startJobTokenRevoker(db);
  startScheduler(db);
  if (process.env.RUNNER_EMBEDDED === "false") {
    console.log("[taskboard] scheduler started; no embedded runner (RUNNER_EMBEDDED=false)");
    return;
  }
  await startEmbeddedRunner(db);
  console.log("[taskboard] scheduler started");
}
