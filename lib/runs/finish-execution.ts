import type { Execution } from "@/lib/generated/prisma/client";
import type { RunUsage } from "@/lib/runner-protocol";
import { recordEvents, type NewEvent } from "@/lib/events/record-events";
import { serializeExecution, serializeTaskRun } from "@/lib/runs/serialize";
import { RUN_STATUS, RUN_TRIGGER, STARTED_RUN_STATUSES, type FinishedRunStatus, type RunStatus } from "@/lib/runs/statuses";
import type { Db, Tx } from "@/lib/db/client";
import { endOfColumn, lockColumn } from "@/lib/tasks/positions";
import { endJobTokens } from "@/lib/runs/end-job-tokens";

// What the API (lib/runs) and the runner (lib/runner-process) both need of an execution's lifetime. The
// runner imports lib/runs, never the other way round.

/** Names the agent token of an execution, so the runner can key it and revoke it when done. */
export function agentTokenName(executionId: string): string {
  return `execution:${executionId}`;
}

export interface Outcome {
  status: FinishedRunStatus;
  exitCode?: number | null;
  errorMessage?: string | null;
  report?: string | null;
  lineCount?: number;
  lastActivityAt?: Date | null;
  /** What the agent reported (never estimated); stored on the task run. */
  usage?: RunUsage | null;
  /** A succeeded run that said nothing, called no tool and changed nothing (the runner decides). */
  noOutput?: boolean;
}

/**
 * Records how an execution ended, on the execution and its task run in one transaction, revokes
 * its agent token, marks its GitHub job tokens for revocation and, for a successful conflict fix, clears the task's conflict. Only an
 * execution still in one of `from` is changed (a cancel from another instance may have finished it
 * first); then only the process's own facts (exit code, report, lines) are added. Returns the
 * execution after the change, or null when it was not found.
 */
export async function finishExecution(
  db: Db,
  executionId: string,
  outcome: Outcome,
  from: readonly RunStatus[] = STARTED_RUN_STATUSES,
): Promise<Execution | null> {
  const now = new Date();
  return db.$transaction(async (tx) => {
    const current = await tx.execution.findUnique({ where: { id: executionId } });
    if (!current) return null;
    const facts = {
      ...(outcome.lineCount !== undefined ? { lineCount: outcome.lineCount } : {}),
      ...(outcome.lastActivityAt ? { lastActivityAt: outcome.lastActivityAt } : {}),
      ...(outcome.report !== undefined ? { report: outcome.report } : {}),
    };
    if (!(from as readonly string[]).includes(current.status)) {
      // Already finished (cancelled elsewhere): add what only the process knew, keep the verdict.
      if (Object.keys(facts).length === 0 && outcome.exitCode === undefined && !outcome.usage) return current;
      const execution = await tx.execution.update({
        where: { id: executionId },
        data: { ...facts, exitCode: current.exitCode ?? outcome.exitCode ?? null },
      });
      const run = outcome.usage
        ? await tx.taskRun.update({ where: { id: current.taskRunId }, data: { usage: { ...outcome.usage } } })
        : null;
      await recordEvents(tx, execution.workspaceId, [
        ...(run ? [{ type: "run.updated" as const, taskId: run.taskId, data: serializeTaskRun(run) }] : []),
        executionEvent(execution),
      ]);
      return execution;
    }
    const ran = (STARTED_RUN_STATUSES as readonly string[]).includes(current.status);
    const duration = ran ? Math.max(0, (now.getTime() - current.startedAt.getTime()) / 1000) : null;
    const execution = await tx.execution.update({
      where: { id: executionId },
      data: {
        ...facts,
        status: outcome.status,
        exitCode: outcome.exitCode ?? null,
        errorMessage: outcome.errorMessage ?? null,
        finishedAt: now,
        duration,
      },
    });
    const run = await tx.taskRun.update({
      where: { id: current.taskRunId },
      data: {
        status: outcome.status,
        exitCode: outcome.exitCode ?? null,
        errorMessage: outcome.errorMessage ?? null,
        finishedAt: now,
        durationSeconds: duration,
        ...(outcome.usage ? { usage: { ...outcome.usage } } : {}),
        ...(outcome.noOutput ? { noOutput: true } : {}),
      },
    });
    await tx.authToken.updateMany({
      where: { kind: "agent", name: agentTokenName(executionId), revokedAt: null },
      data: { revokedAt: now },
    });
    // Its GitHub tokens are revoked after commit (lib/github/sync/revoke-job-tokens.ts), not in here.
    await endJobTokens(tx, executionId, now);
    const task =
      execution.trigger === RUN_TRIGGER.fix_conflicts && outcome.status === RUN_STATUS.succeeded
        ? await resolveConflict(tx, execution.taskId, execution.keepStatus)
        : null;
    await recordEvents(tx, execution.workspaceId, [
      { type: "run.updated", taskId: run.taskId, data: serializeTaskRun(run) },
      ...(task ? [{ type: task.moved ? ("task.moved" as const) : ("task.updated" as const), taskId: task.id }] : []),
      executionEvent(execution),
    ]);
    return execution;
  });
}

export function executionEvent(execution: Execution, extra?: object): NewEvent {
  return { type: "execution.updated", taskId: execution.taskId, data: { ...serializeExecution(execution), ...extra } };
}

/** The conflict is gone: clear the flag and, unless told to keep it, put the task up for review. */
async function resolveConflict(tx: Tx, taskId: string, keepStatus: boolean) {
  const current = await tx.task.findUnique({ where: { id: taskId }, select: { workspaceId: true, status: true } });
  if (!current) return null;
  const moved = !keepStatus && current.status !== "in_review";
  if (moved) {
    // The tasks API's rule: a column's positions are written under its lock, taken before the row lock.
    await lockColumn(tx, current.workspaceId, "in_review");
    const position = await endOfColumn(tx, current.workspaceId, "in_review", taskId);
    await tx.task.update({ where: { id: taskId }, data: { hasMergeConflict: false, status: "in_review", position, doneAt: null } });
  } else {
    await tx.task.update({ where: { id: taskId }, data: { hasMergeConflict: false } });
  }
  return { id: taskId, workspaceId: current.workspaceId, moved };
}
