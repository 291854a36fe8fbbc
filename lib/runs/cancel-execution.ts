import type { Db } from "@/lib/db/client";
import { awaitStopped } from "@/lib/runs/await-runner";
import { conflict } from "@/lib/platform/errors";
import { finishExecution } from "@/lib/runs/finish-execution";
import { serializeExecution } from "@/lib/runs/serialize";
import { ACTIVE_RUN_STATUSES, isFinishedRunStatus, RUN_STATUS } from "@/lib/runs/statuses";
import { getExecution } from "@/lib/runs/get-execution";

/**
 * Cancels a queued or running execution: it is recorded `cancelled` at once, and the runner that
 * holds it hears of it through the heartbeat the server holds for it (lib/dispatch/renew-leases.ts)
 * and stops its agent (SIGTERM to the process group, SIGKILL after the grace period) and adds the
 * process's own facts to the record. The answer waits for that report,
 * a few seconds at most (lib/runs/await-runner.ts), so it says the agent is stopped.
 */
export async function cancelExecution(db: Db, workspaceId: string, executionId: string, username: string) {
  const execution = await getExecution(db, workspaceId, executionId);
  if (isFinishedRunStatus(execution.status)) throw conflict(`The execution has already finished (${execution.status})`);
  const message = `cancelled by ${username}`;
  await finishExecution(db, executionId, { status: RUN_STATUS.cancelled, errorMessage: message }, ACTIVE_RUN_STATUSES);
  await awaitStopped(db, workspaceId, executionId);
  return serializeExecution(await getExecution(db, workspaceId, executionId));
}
