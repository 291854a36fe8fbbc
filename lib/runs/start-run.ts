import type { Db } from "@/lib/db/client";
import { conflict, notFound } from "@/lib/api/errors";
import { fixConflictsInstructions, taskInstructions, withReviewComments, type ReviewComment } from "@/lib/runs/instructions";
import { serializeExecution } from "@/lib/runs/serialize";
import { startExecution } from "@/lib/runs/start-execution";
import { runnerHandle } from "@/lib/runs/runner-handle";
import { RUN_TRIGGER } from "@/lib/runs/statuses";

export interface ManualRunInput {
  instructions?: string | null;
  agent_id?: string | null;
  comments?: ReviewComment[];
}

/** A run of the agent on a task, started by a person or a script (a follow-up on the same task continues its work). */
export async function startManualRun(db: Db, workspaceId: string, taskId: string, userId: string, input: ManualRunInput = {}) {
  const task = await findTask(db, workspaceId, taskId);
  const base = input.instructions?.trim() ? input.instructions : taskInstructions(task);
  const { execution } = await startExecution(db, {
    workspaceId,
    taskId,
    trigger: RUN_TRIGGER.manual,
    instructions: withReviewComments(base, input.comments ?? []),
    startedBy: userId,
    agentId: input.agent_id,
  });
  return startedRecord(db, execution.id);
}

/** Runs the agent with the conflict-fixing template on a task whose pull request has a merge conflict. */
export async function startFixConflicts(db: Db, workspaceId: string, taskId: string, userId: string, keepStatus: boolean) {
  const task = await findTask(db, workspaceId, taskId);
  if (!task.prUrl) throw conflict("The task has no pull request (pr_url)");
  if (!task.hasMergeConflict) throw conflict("The task's pull request has no merge conflict");
  const { execution } = await startExecution(db, {
    workspaceId,
    taskId,
    trigger: RUN_TRIGGER.fix_conflicts,
    instructions: fixConflictsInstructions(task),
    keepStatus,
    startedBy: userId,
  });
  return startedRecord(db, execution.id);
}

async function findTask(db: Db, workspaceId: string, taskId: string) {
  const task = await db.task.findFirst({ where: { id: taskId, workspaceId } });
  if (!task) throw notFound("Task");
  return task;
}

/**
 * The record once this server has started the process (runner_pid set), or still `queued` when
 * the concurrency cap holds it back or another instance picks it up; waits at most a few seconds.
 */
async function startedRecord(db: Db, executionId: string) {
  await runnerHandle()?.waitStarted(executionId);
  return serializeExecution(await db.execution.findUniqueOrThrow({ where: { id: executionId } }));
}
