import type { Db } from "@/lib/db/client";
import type { Runner } from "@/lib/generated/prisma/client";
import { hashSecret, newSecret } from "@/lib/auth/tokens";
import { recordEvents } from "@/lib/events/record-events";
import { conflict } from "@/lib/platform/errors";
import { appendLogEntries } from "@/lib/runs/append-log-entries";
import { agentTokenName, executionEvent } from "@/lib/runs/finish-execution";
import { serializeTaskRun } from "@/lib/runs/serialize";
import { RUN_STATUS, STARTED_RUN_STATUSES } from "@/lib/runs/statuses";
import { runnerExecution } from "@/lib/dispatch/runner-execution";
import { endJobTokens } from "@/lib/runs/end-job-tokens";

// A runner that shuts down hands back the runs it could not finish within its grace period
// (docs/runners.md, "Handing a run back"). The run is queued again, as it was before the claim
// but with its log: another runner claims it (in its turn, by its queue time) and numbers its
// entries on from the stored count (the job's log_seq). Only the holding runner may do this.

export async function releaseRunnerExecution(db: Db, runner: Runner, executionId: string, reason: string) {
  const held = await runnerExecution(db, runner, executionId);
  const released = await db.$transaction(async (tx) => {
    // Under the row lock: a cancel or a lease sweep on another instance may end it first.
    const [row] = await tx.$queryRaw<{ status: string }[]>`SELECT status FROM executions WHERE id = ${executionId} FOR UPDATE`;
    if (!row || !(STARTED_RUN_STATUSES as readonly string[]).includes(row.status)) return null;
    const execution = await tx.execution.update({
      where: { id: executionId },
      data: {
        status: RUN_STATUS.queued,
        runnerId: null,
        runnerName: null,
        runnerInstance: null,
        runnerPid: null,
        leaseExpiresAt: null,
        // The agent's session lived on the runner that let go of it.
        acpSessionId: null,
        acpSessionLoaded: null,
      },
    });
    const run = await tx.taskRun.update({ where: { id: execution.taskRunId }, data: { status: RUN_STATUS.queued } });
    // The token the stopped agent held stops working now; the next claim keys it anew.
    await tx.authToken.updateMany({
      where: { kind: "agent", name: agentTokenName(executionId), revokedAt: null },
      data: { tokenHash: hashSecret(newSecret("agent")) },
    });
    // So does its repository token (revoked after commit); the next claim mints its own.
    await endJobTokens(tx, executionId, new Date());
    await recordEvents(tx, execution.workspaceId, [
      { type: "run.updated", taskId: run.taskId, data: serializeTaskRun(run) },
      executionEvent(execution),
    ]);
    return execution;
  });
  if (!released)
    throw conflict(`The run is ${(await db.execution.findUnique({ where: { id: held.id } }))?.status ?? "gone"}: it cannot be handed back`);
  const message = `Handed back by the runner ${runner.name} (${reason}): queued again for another runner`;
  await appendLogEntries(db, executionId, [{ type: "error", update: { message, released_by: runner.name } }]);
  console.log(`[taskboard] execution ${executionId}: ${message}`);
}
