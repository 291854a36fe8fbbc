import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import type { Execution, Runner } from "@/lib/generated/prisma/client";
import { recordEvents } from "@/lib/events/record-events";
import { gitRemoteFor } from "@/lib/git/remote/git-remote-for";
import { recordRunModel } from "@/lib/runners/acp-session";
import { executionEvent, finishExecution } from "@/lib/runs/finish-execution";
import { storeRunChanges } from "@/lib/git/workdir/record-run-changes";
import { recordWorktree } from "@/lib/worktrees/worktree-records";
import { conflict, notFound } from "@/lib/platform/errors";
import { STARTED_RUN_STATUSES } from "@/lib/runs/statuses";
import { runnerExecution } from "@/lib/runners/runner-execution";
import type { finishBody, updateExecutionBody } from "@/lib/runners/protocol-schemas";

// What a runner tells the server about a run it holds: the agent's process started, its ACP
// session and model, the task's worktree, and finally the outcome. Each goes through the domain
// function the server used when it ran agents itself.

export async function updateRunnerExecution(db: Db, runner: Runner, executionId: string, body: z.output<typeof updateExecutionBody>) {
  await recordExecutionFacts(db, await runnerExecution(db, runner, executionId), body);
}

/** The facts of a running execution (also the embedded runner's way to record them). */
export async function recordExecutionFacts(db: Db, execution: Execution, body: z.output<typeof updateExecutionBody>) {
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
    await recordWorktree(db, { taskId: execution.taskId, workspaceId: execution.workspaceId, path, branch });
    if (bytes !== undefined) await db.taskWorktree.updateMany({ where: { taskId: execution.taskId }, data: { bytes: BigInt(bytes) } });
  }
}

/** The outcome. Sent again (a lost answer) it changes nothing: finishExecution keeps the first verdict. */
export async function finishRunnerExecution(db: Db, runner: Runner, executionId: string, body: z.output<typeof finishBody>) {
  await recordOutcome(db, await runnerExecution(db, runner, executionId), body);
}

/** The outcome and the branch's changes (also the embedded runner's way to record them). */
export async function recordOutcome(db: Db, execution: Execution, body: z.input<typeof finishBody>) {
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

/** git's way to the job's repository again, with a freshly minted token when `fresh` (git was refused). */
export async function runnerRemote(db: Db, runner: Runner, executionId: string, fresh: boolean) {
  const execution = await runnerExecution(db, runner, executionId);
  // A job's credential is for the job's duration: none once the run has ended.
  if (!(STARTED_RUN_STATUSES as readonly string[]).includes(execution.status))
    throw conflict(`The run is ${execution.status}: no credential for it`);
  const remote = await gitRemoteFor(db, execution.workspaceId, { fresh, job: true });
  if (!remote) throw notFound("Repository");
  return { url: remote.url, access: remote.access };
}
