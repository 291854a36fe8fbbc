import type { Db } from "@/lib/db/client";
import type { Runner } from "@/lib/generated/prisma/client";
import { conflict, notFound } from "@/lib/platform/errors";
import { endedRunReason } from "@/lib/runs/ended-run";

/** An execution this runner claimed; 404 for any other (another runner's ids reveal nothing). */
export async function runnerExecution(db: Db, runner: Runner, executionId: string) {
  const execution = await db.execution.findFirst({ where: { id: executionId, runnerId: runner.id } });
  if (!execution) throw notFound("Execution");
  return execution;
}

/**
 * The same, for a call that adds to the run or changes it: 409 in words once it has ended, but for
 * its runner's wind-down (`windDown` names what it sends: lib/runs/ended-run.ts).
 */
export async function openRunnerExecution(db: Db, runner: Runner, executionId: string, options: { windDown?: string } = {}) {
  const execution = await runnerExecution(db, runner, executionId);
  const reason = endedRunReason(execution, { ...options, now: new Date() });
  if (reason) throw conflict(reason);
  return execution;
}
