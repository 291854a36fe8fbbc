import type { Db } from "@/lib/db/client";
import { runnerLeaseSeconds } from "@/lib/config";
import { finishExecution } from "@/lib/runs/finish-execution";
import { RUN_STATUS, STARTED_RUN_STATUSES } from "@/lib/runs/statuses";
import { announceRunnersGone } from "@/lib/dispatch/runner-status-events";

// Only an expired lease ends a run a runner holds: a runner that stops renewing (killed, its
// machine gone, its token deleted) loses its runs, each `failed` in words. Every instance sweeps;
// finishExecution changes a run only while it is still running, so two sweeps finish it once.

const SWEEP_MS = 5000;

export async function expireLeases(db: Db): Promise<number> {
  const rows = await db.execution.findMany({
    where: { status: { in: [...STARTED_RUN_STATUSES] }, runnerId: { not: null }, leaseExpiresAt: { lt: new Date() } },
    select: { id: true, runnerName: true },
    take: 500,
  });
  for (const row of rows) {
    const message = `the runner ${row.runnerName ?? ""} was lost: no heartbeat for ${runnerLeaseSeconds()} s`.replace("  ", " ");
    await finishExecution(db, row.id, { status: RUN_STATUS.failed, errorMessage: message });
    console.log(`[taskboard] execution ${row.id}: ${message}`);
  }
  return rows.length;
}

/**
 * Sweeps every few seconds, so a lost run ends within RUNNER_LEASE_SECONDS plus 10 s. First, the
 * runs runners hold get a full lease from now: while no server answered (a restart), no runner
 * could renew, and a restart must not end a run.
 */
export async function startLeaseSweeper(db: Db) {
  await db.execution.updateMany({
    where: { status: { in: [...STARTED_RUN_STATUSES] }, runnerId: { not: null } },
    data: { leaseExpiresAt: new Date(Date.now() + runnerLeaseSeconds() * 1000) },
  });
  const timer = setInterval(() => {
    expireLeases(db).catch((error: Error) => console.error(`[taskboard] lease sweep: ${error.message}`));
    // The same silence makes a runner offline: recorded once, for the boards' waiting reasons.
    announceRunnersGone(db).catch((error: Error) => console.error(`[taskboard] runner status sweep: ${error.message}`));
  }, SWEEP_MS);
  timer.unref();
}
