import fs from "node:fs";
import os from "node:os";
import type { Db } from "@/lib/db/client";
import { recordEvents } from "@/lib/events/record-events";
import { executionEvent, finishExecution } from "@/lib/runs/finish-execution";
import { serializeTaskRun } from "@/lib/runs/serialize";
import { RUN_STATUS, STARTED_RUN_STATUSES } from "@/lib/runs/statuses";
import { killGraceMs, timeoutSeconds } from "@/lib/platform/runner-config";
import { isAlive, stopGroup } from "@/lib/platform/processes";

export const INTERRUPTED = "interrupted by server restart";

/**
 * Finds executions marked `running` whose server process is gone and settles them: one that never
 * got its process goes back to `queued`; one whose process was started is finished as `failed`
 * (its agent, if it survived in its own process group, is stopped first). Runs at start-up and
 * every half minute in every instance.
 *
 * Whose process is gone: on PGlite every other instance (one process owns the directory); on
 * PostgreSQL an instance on this host whose pid is dead, or any instance whose execution is far
 * past the timeout (its server would have killed it, so that server is gone).
 */
export async function sweepOrphans(db: Db, kind: "pglite" | "postgresql", instanceId: string) {
  const rows = await db.execution.findMany({
    where: { status: { in: [...STARTED_RUN_STATUSES] }, NOT: { runnerInstance: instanceId } },
    select: { id: true, workspaceId: true, taskRunId: true, runnerInstance: true, runnerPid: true, startedAt: true },
    take: 500,
  });
  const overdue = Date.now() - (timeoutSeconds() * 1000 + killGraceMs() + 120_000);
  for (const row of rows) {
    const stale = row.startedAt.getTime() < overdue;
    if (!(kind === "pglite" || instanceDeadHere(row.runnerInstance) || stale)) continue;
    if (row.runnerPid === null && !stale) {
      await requeue(db, row.id, row.taskRunId);
      continue;
    }
    if (row.runnerPid !== null && sameHost(row.runnerInstance)) stopOrphanAgent(row.runnerPid, row.id);
    const message =
      stale && kind === "postgresql" && !sameHost(row.runnerInstance)
        ? `interrupted: the server running it (${row.runnerInstance}) stopped responding`
        : INTERRUPTED;
    await finishExecution(db, row.id, { status: RUN_STATUS.failed, errorMessage: message });
    console.log(`[taskboard] execution ${row.id}: ${message}`);
  }
}

async function requeue(db: Db, executionId: string, taskRunId: string) {
  const result = await db.$transaction(async (tx) => {
    const { count } = await tx.execution.updateMany({
      where: { id: executionId, status: RUN_STATUS.running, runnerPid: null },
      data: { status: RUN_STATUS.queued, runnerInstance: null },
    });
    if (count === 0) return null;
    const run = await tx.taskRun.update({ where: { id: taskRunId }, data: { status: RUN_STATUS.queued } });
    const execution = await tx.execution.findUniqueOrThrow({ where: { id: executionId } });
    await recordEvents(tx, execution.workspaceId, [
      { type: "run.updated", taskId: run.taskId, data: serializeTaskRun(run) },
      executionEvent(execution),
    ]);
    return execution;
  });
  if (!result) return;
  console.log(`[taskboard] execution ${executionId}: never started before the restart; queued again`);
}

function sameHost(instance: string | null): boolean {
  return instance?.split(":")[0] === os.hostname();
}

function instanceDeadHere(instance: string | null): boolean {
  if (!instance || !sameHost(instance)) return false;
  const pid = Number(instance.split(":")[1]);
  return pid === process.pid || !isAlive(pid);
}

/** Only a process that still carries this execution's id in its environment is ours to stop (pids get reused). */
function stopOrphanAgent(pid: number, executionId: string) {
  let environ: string;
  try {
    environ = fs.readFileSync(`/proc/${pid}/environ`, "utf8");
  } catch {
    return;
  }
  if (!environ.split("\0").includes(`TASKBOARD_EXECUTION_ID=${executionId}`)) return;
  stopGroup(pid, killGraceMs());
}
