import type { Db } from "@/lib/db/client";
import { conflict, notFound } from "@/lib/platform/errors";
import type { z } from "zod";
import { fixConflictsInstructions, taskInstructions, withReviewComments } from "@/lib/runs/instructions";
import type { startRunBody } from "@/lib/runs/schemas";
import { serializeExecution } from "@/lib/runs/serialize";
import { waitingForRunner } from "@/lib/runs/waiting-for-runner";
import { startExecution } from "@/lib/runs/start-execution";
import { awaitStart } from "@/lib/runs/await-runner";
import { RUN_TRIGGER } from "@/lib/runs/statuses";
import { refuseIfBlocked } from "@/lib/dependencies/task-refs";
import { foreignBranchReason } from "@/lib/repositories/foreign-branch";

/**
 * Who starts a run: the user its agent token will act as, and for a request the credential's kind
 * and id (an API caller fits as it is); an agent token's runs follow lib/runs/agent-started-run.ts.
 */
export interface RunStarter {
  userId: string;
  kind?: string;
  tokenId?: string;
  /**
   * The answer says `queued` at once rather than waiting (up to 3 s) for a runner to start the
   * agent: a reaction's or a webhook follow-up's start, whose answer nobody reads (the wait would
   * hold the reactions worker, and every `Prefer: wait=reactions` write behind it), or a request
   * sent with `Prefer: respond-async` (a script queueing many runs).
   */
  answerQueued?: boolean;
}

const agentTokenOf = (starter: RunStarter) => (starter.kind === "agent" ? starter.tokenId : null);

/** What a person, a script or an MCP client may say about a manual run: the HTTP body's own schema. */
export type ManualRunInput = NonNullable<z.output<typeof startRunBody>>;

/**
 * A run of the agent on a task, started by a person or a script (a follow-up on the same task
 * continues its work). 409 naming the open blockers when the task waits for unfinished tasks, unless `force`.
 */
export async function startManualRun(db: Db, workspaceId: string, taskId: string, starter: RunStarter, input: ManualRunInput = {}) {
  const task = await findTask(db, workspaceId, taskId);
  await refuseIfBlocked(db, workspaceId, task, input.force);
  const base = input.instructions?.trim() ? input.instructions : taskInstructions(task);
  const { execution } = await startExecution(db, {
    workspaceId,
    taskId,
    trigger: RUN_TRIGGER.manual,
    instructions: withReviewComments(base, input.comments ?? []),
    startedBy: starter.userId,
    agentId: input.agent_id,
    agentTokenId: agentTokenOf(starter),
  });
  return startedRecord(db, execution.id, starter);
}

/**
 * Runs the agent with the conflict-fixing template on a task whose pull request has a merge conflict.
 * With a workspace repository the server merges in git (lib/git/workdir/fix-conflicts-flow.ts) into the
 * task's own branch, which it never creates; without one the agent gets the pull request and does
 * the git work itself, as before repositories existed.
 */
export async function startFixConflicts(db: Db, workspaceId: string, taskId: string, starter: RunStarter, keepStatus: boolean) {
  const task = await findTask(db, workspaceId, taskId);
  const repository = await db.workspaceRepository.findUnique({ where: { workspaceId }, select: { defaultBranch: true } });
  if (repository) {
    // The task's `branch` is set by the first run, by a person or by a linked pull request.
    const branch = task.branch ?? task.prHeadBranch;
    if (!branch) throw conflict("The task has no branch to merge into: set its branch (the pull request's head branch) first");
    const foreign = foreignBranchReason(branch, task, repository.defaultBranch);
    if (foreign) throw conflict(foreign);
  } else if (!task.prUrl) {
    throw conflict("The task has no pull request (pr_url) whose conflicts the agent could fix");
  }
  if (!task.hasMergeConflict) throw conflict("The task's pull request has no merge conflict");
  const { execution } = await startExecution(db, {
    workspaceId,
    taskId,
    trigger: RUN_TRIGGER.fix_conflicts,
    instructions: fixConflictsInstructions(task),
    keepStatus,
    startedBy: starter.userId,
    agentTokenId: agentTokenOf(starter),
  });
  return startedRecord(db, execution.id, starter);
}

async function findTask(db: Db, workspaceId: string, taskId: string) {
  const task = await db.task.findFirst({ where: { id: taskId, workspaceId } });
  if (!task) throw notFound("Task");
  return task;
}

/** The record once a runner has started its agent, or still `queued` when no runner has room (lib/runs/await-runner.ts). */
async function startedRecord(db: Db, executionId: string, starter: RunStarter) {
  if (!starter.answerQueued) {
    const queued = await db.execution.findUniqueOrThrow({ where: { id: executionId }, select: { workspaceId: true } });
    await awaitStart(db, queued.workspaceId, executionId);
  }
  const execution = await db.execution.findUniqueOrThrow({ where: { id: executionId } });
  return serializeExecution(execution, await waitingForRunner(db, execution));
}
