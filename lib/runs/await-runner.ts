import type { Db } from "@/lib/db/client";
import { runStartWaitMs, runStopWaitMs } from "@/lib/config";
import { onWorkspaceEvents } from "@/lib/events/wake";
import { isActiveRunStatus, RUN_STATUS } from "@/lib/runs/statuses";
import { waitingForRunner } from "@/lib/runs/waiting-for-runner";

// Answers that wait a moment for a runner, so they say what happened rather than what was asked.
// A run started by a person or a script answers once a runner has started its agent (runner_pid
// set), so the answer says `running` in the common case; it waits only while an online runner that
// may take this run has a free slot (the run's `waiting_for_runner` is null; otherwise it stays
// queued and says why at once), and at most RUN_START_WAIT_SECONDS (3 s).
// A cancel answers once the runner has stopped the agent and reported it (its lease is let go), at
// most RUN_STOP_WAIT_SECONDS (15 s): the ACP agent's moment to end its turn, the kill grace.

export async function awaitStart(db: Db, workspaceId: string, executionId: string): Promise<void> {
  if (await waitingForRunner(db, { id: executionId, status: RUN_STATUS.queued })) return;
  await waitUntil(db, workspaceId, executionId, runStartWaitMs(), (row) => row.runnerPid !== null || !isActiveRunStatus(row.status));
}

/** After a cancel was recorded: until the runner holding the run has reported it (only a runner-held run waits). */
export async function awaitStopped(db: Db, workspaceId: string, executionId: string): Promise<void> {
  const waitMs = runStopWaitMs();
  const stopped = await waitUntil(db, workspaceId, executionId, waitMs, (row) => row.runnerId === null || row.leaseExpiresAt === null);
  // Worth a line: a cancel that waited this long was slow for its caller (a runner that never reports).
  if (!stopped && waitMs > 0)
    console.log(`[taskboard] cancel of ${executionId}: answered after ${waitMs / 1000} s, its runner has not reported yet`);
}

type Row = { status: string; runnerPid: number | null; runnerId: string | null; leaseExpiresAt: Date | null };

/** True once `done` holds (or the run is gone), false when `waitMs` ran out first. */
async function waitUntil(db: Db, workspaceId: string, executionId: string, waitMs: number, done: (row: Row) => boolean): Promise<boolean> {
  let wake = () => {};
  const unsubscribe = onWorkspaceEvents(workspaceId, () => wake());
  const deadline = Date.now() + waitMs;
  try {
    for (;;) {
      const row = await db.execution.findUnique({
        where: { id: executionId },
        select: { status: true, runnerPid: true, runnerId: true, leaseExpiresAt: true },
      });
      if (!row || done(row)) return true;
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 250));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  } finally {
    unsubscribe();
  }
}
