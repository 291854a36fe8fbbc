import type { Db } from "@/lib/db/client";
import type { Execution, Runner } from "@/lib/generated/prisma/client";
import { conflict, notFound } from "@/lib/platform/errors";
import { isFinishedRunStatus } from "@/lib/runs/statuses";

/**
 * After the server ended a run (a person cancelled it, it timed out, its lease expired), how long
 * its runner may still upload the branch's diff and bundle: the runner stops the agent, commits and
 * uploads them, then reports its finish (lib/runner/run-job.ts), which closes the run to it.
 */
export const UPLOAD_WINDOW_MS = 60_000;

/** An execution this runner claimed; 404 for any other (another runner's ids reveal nothing). */
export async function runnerExecution(db: Db, runner: Runner, executionId: string) {
  const execution = await db.execution.findFirst({ where: { id: executionId, runnerId: runner.id } });
  if (!execution) throw notFound("Execution");
  return execution;
}

/**
 * The same, for a call that changes the run: 409 in words once it has ended. `upload` (the
 * branch's diff, its bundle): also within UPLOAD_WINDOW_MS of its end, until its runner has
 * reported its finish.
 */
export async function openRunnerExecution(db: Db, runner: Runner, executionId: string, options: { upload?: boolean } = {}) {
  const execution = await runnerExecution(db, runner, executionId);
  const reason = endedRunReason(execution, { ...options, now: new Date() });
  if (reason) throw conflict(reason);
  return execution;
}

/** Why a runner's call on this run is refused, or null while it may still make it. */
export function endedRunReason(
  execution: Pick<Execution, "status" | "finishedAt" | "leaseExpiresAt">,
  options: { upload?: boolean; now: Date },
): string | null {
  if (!isFinishedRunStatus(execution.status)) return null;
  const ended = `The run has ended (${execution.status})`;
  if (!options.upload) return `${ended}: its runner can no longer add to it or change it`;
  // The runner's finish lets go of the lease (lib/runners/report-execution.ts): nothing comes after it.
  if (execution.leaseExpiresAt === null) return `${ended} and its runner reported its outcome: the diff and bundle come before that`;
  const since = options.now.getTime() - (execution.finishedAt ?? options.now).getTime();
  if (since > UPLOAD_WINDOW_MS)
    return `${ended} ${Math.round(since / 1000)} s ago: the diff and bundle are taken only within ${UPLOAD_WINDOW_MS / 1000} s of its end`;
  return null;
}
