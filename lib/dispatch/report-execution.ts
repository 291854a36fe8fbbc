import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import type { Execution, Runner } from "@/lib/generated/prisma/client";
import { recordEvents } from "@/lib/events/record-events";
import { gitRemoteFor } from "@/lib/git/remote/git-remote-for";
import { recordRunModel } from "@/lib/dispatch/acp-session";
import { executionEvent, finishExecution } from "@/lib/runs/finish-execution";
import { storeRunChanges } from "@/lib/runs/store-run-changes";
import { recordWorktree } from "@/lib/worktrees/worktree-records";
import { conflict, notFound } from "@/lib/platform/errors";
import { isFinishedRunStatus, STARTED_RUN_STATUSES } from "@/lib/runs/statuses";
import { foreignBranchReason } from "@/lib/repositories/foreign-branch";
import { openRunnerExecution, runnerExecution } from "@/lib/dispatch/runner-execution";
import { storeTaskDiff } from "@/lib/git/worktree/store-task-diff";
import type { diffBody, finishBody, updateExecutionBody } from "@/lib/runner-protocol";

// What a runner tells the server about a run it holds: the agent's process started, its ACP
// session and model, the task's worktree, and finally the outcome. Each goes through the domain
// function the server used when it ran agents itself. A run that has ended takes none of it (409),
// but for the diff its runner uploads before it reports the finish (lib/runs/ended-run.ts).

export async function updateRunnerExecution(db: Db, runner: Runner, executionId: string, body: z.output<typeof updateExecutionBody>) {
  await recordExecutionFacts(db, runner, await openRunnerExecution(db, runner, executionId), body);
}

async function recordExecutionFacts(db: Db, runner: Runner, execution: Execution, body: z.output<typeof updateExecutionBody>) {
  const executionId = execution.id;
  const data = {
    ...(body.runner_pid !== undefined ? { runnerPid: body.runner_pid } : {}),
    ...(body.acp_session_id !== undefined ? { acpSessionId: body.acp_session_id } : {}),
    ...(body.acp_session_loaded !== undefined ? { acpSessionLoaded: body.acp_session_loaded } : {}),
  };
  if (Object.keys(data).length > 0) {
    await db.$transaction(async (tx) => {
      const updated = await tx.execution.update({ where: { id: executionId }, data });
      await recordEvents(tx, updated.workspaceId, [executionEvent(updated)]);
    });
  }
  if (body.model) await recordRunModel(db, execution, body.model);
  if (body.worktree) {
    const { path, branch, bytes } = body.worktree;
    // Kept for display; the sweep deletes files only for the embedded runner's records, at the path
    // the server derives itself (lib/git/worktree/sweep-worktrees.ts), whatever the path says.
    await recordWorktree(db, { taskId: execution.taskId, workspaceId: execution.workspaceId, path, branch, runnerId: runner.id });
    if (bytes !== undefined) await db.taskWorktree.updateMany({ where: { taskId: execution.taskId }, data: { bytes: BigInt(bytes) } });
  }
}

/**
 * The outcome. finishExecution keeps the first verdict (a run the server ended takes the runner's
 * report and usage only); sent again once recorded (a lost answer) it changes nothing.
 */
export async function finishRunnerExecution(db: Db, runner: Runner, executionId: string, body: z.output<typeof finishBody>) {
  const execution = await runnerExecution(db, runner, executionId);
  if (isFinishedRunStatus(execution.status) && execution.leaseExpiresAt === null) return;
  await recordOutcome(db, execution, body);
}

/** The outcome and the branch's changes. */
async function recordOutcome(db: Db, execution: Execution, body: z.input<typeof finishBody>) {
  const executionId = execution.id;
  if (body.changes) {
    await storeRunChanges(db, execution, {
      commitSha: body.changes.commit_sha,
      filesChanged: body.changes.files_changed,
      linesAdded: body.changes.lines_added,
      linesRemoved: body.changes.lines_removed,
    });
  }
  await finishExecution(db, executionId, {
    status: body.status,
    exitCode: body.exit_code,
    errorMessage: body.error_message,
    report: body.report,
    usage: body.usage,
    noOutput: body.no_output,
    lastActivityAt: body.last_activity_at ? new Date(body.last_activity_at) : null,
  });
  await db.execution.update({ where: { id: executionId }, data: { leaseExpiresAt: null } });
}

/** The task branch's diff after the run, stored for GET …/diff on any instance (lib/git/worktree/task-diff.ts). */
export async function storeRunnerDiff(db: Db, runner: Runner, executionId: string, body: z.output<typeof diffBody>) {
  const execution = await openRunnerExecution(db, runner, executionId, { windDown: "the diff is" });
  await storeTaskDiff(
    db,
    { taskId: execution.taskId, workspaceId: execution.workspaceId, executionId },
    {
      branch: body.branch,
      base: body.base,
      baseSha: body.base_sha,
      commitSha: body.commit_sha,
      filesChanged: body.files_changed,
      linesAdded: body.lines_added,
      linesRemoved: body.lines_removed,
      truncated: body.truncated,
      files: body.files,
      patch: body.patch,
    },
  );
}

/**
 * git's way to the job's repository again, with a freshly minted token when `fresh` (git was
 * refused). `push`: the runner is about to push that branch, and asks first: the branch must still
 * be the task's own, as the task is now (a person may have pointed it elsewhere while the agent
 * worked), else 409 in words. The server's own pushes pass the same check (lib/git/remote/push-task-branch.ts).
 */
export async function runnerRemote(db: Db, runner: Runner, executionId: string, fresh: boolean, push?: string) {
  const execution = await runnerExecution(db, runner, executionId);
  // A job's credential is for the job's duration: none once the run has ended.
  if (!(STARTED_RUN_STATUSES as readonly string[]).includes(execution.status)) {
    throw conflict(`The run is ${execution.status}: no credential for it`);
  }
  if (push !== undefined) await checkPush(db, execution, push);
  const remote = await gitRemoteFor(db, execution.workspaceId, { fresh, job: { executionId } });
  if (!remote) throw notFound("Repository");
  return { url: remote.url, access: remote.access };
}

async function checkPush(db: Db, execution: Execution, branch: string) {
  const task = await db.task.findFirst({
    where: { id: execution.taskId, workspaceId: execution.workspaceId },
    select: { number: true, branch: true, prHeadBranch: true, workspace: { select: { repository: { select: { defaultBranch: true } } } } },
  });
  const repository = task?.workspace.repository;
  if (!task || !repository) throw conflict(`The task or its repository is gone: ${branch} was not pushed`);
  const current = task.branch ?? task.prHeadBranch ?? branch;
  const reason =
    foreignBranchReason(current, task, repository.defaultBranch) ?? foreignBranchReason(branch, task, repository.defaultBranch);
  if (reason) throw conflict(reason);
  if (current !== branch) throw conflict(`The task's branch was changed to ${current} while the run worked: ${branch} was not pushed`);
}
