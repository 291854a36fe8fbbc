import type { Execution } from "@/lib/generated/prisma/client";
import { isFinishedRunStatus } from "@/lib/runs/statuses";

// Which runner calls a run still takes once it has ended (docs/runners.md, "Ended runs are closed").
// After the server ended a run (a person cancelled it, it timed out, its lease expired) its runner
// still stops the agent, commits the branch, uploads its diff and bundle and logs what it did, then
// reports its finish (lib/runner-process/run-job.ts), which closes the run to it for good.

/** How long after its end a run still takes its runner's wind-down (log entries, the diff, the bundle). */
export const WIND_DOWN_MS = 60_000;

/**
 * Why a runner's call on this run is refused, or null while it may make it. `windDown`: the call is
 * part of the wind-down, and names what it sends ("the diff is").
 */
export function endedRunReason(
  execution: Pick<Execution, "status" | "finishedAt" | "leaseExpiresAt">,
  options: { windDown?: string; now: Date },
): string | null {
  if (!isFinishedRunStatus(execution.status)) return null;
  const ended = `The run has ended (${execution.status})`;
  if (!options.windDown) return `${ended}: its runner can no longer add to it or change it`;
  // The runner's finish lets go of the lease (lib/dispatch/report-execution.ts): nothing comes after it.
  if (execution.leaseExpiresAt === null) return `${ended} and its runner reported its outcome: ${options.windDown} taken only before that`;
  const since = options.now.getTime() - (execution.finishedAt ?? options.now).getTime();
  if (since > WIND_DOWN_MS)
    return `${ended} ${Math.round(since / 1000)} s ago: ${options.windDown} taken only within ${WIND_DOWN_MS / 1000} s of its end`;
  return null;
}

/** An executions row as the log's writer locks it (lib/runs/append-log-entries.ts). */
export type LockedLogRow = {
  id: string;
  line_count: number;
  log_bytes: number;
  status: string;
  finished_at: Date | null;
  lease_expires_at: Date | null;
};

/** [id, why its runner's entries are refused] for a run that has ended past its wind-down; none otherwise. */
export function closedLogReason(row: LockedLogRow): [string, string][] {
  const execution = { status: row.status, finishedAt: row.finished_at, leaseExpiresAt: row.lease_expires_at };
  const reason = endedRunReason(execution, { windDown: "log entries are", now: new Date() });
  return reason ? [[row.id, reason]] : [];
}
