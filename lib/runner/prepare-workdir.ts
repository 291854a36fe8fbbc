import fs from "node:fs";
import type { Db } from "@/lib/db/client";
import type { Execution } from "@/lib/generated/prisma/client";
import { recordEvents } from "@/lib/events/record-events";
import { abortMerge, ensureWorktree, mergeInProgress, syncClone, taskBranchName } from "@/lib/git/task-worktree";
import { isGitAuthFailure } from "@/lib/github/git-remote";
import { gitRemoteFor } from "@/lib/repositories/git-remote-for";
import { repositoryCloneDir } from "@/lib/repositories/repository";
import { remoteFailureMessage } from "@/lib/repositories/remote-failure";
import { agentWorkdir } from "@/lib/runner/config";
import { RUN_TRIGGER } from "@/lib/runs/statuses";
import { mergeForFix } from "@/lib/runs/fix-conflicts-flow";
import { recordWorktree } from "@/lib/worktrees/worktree-records";
import { lastLine, WorkdirError, type PreparedWorkdir, type WorkdirLog } from "@/lib/runs/workdir";

// Where an execution's agent works, made ready before the agent starts. Without a repository: an
// empty scratch directory per task, as before. With one: the server's clone is fetched, and the
// task's own worktree on the task's own branch is made (or reused, or made again from the branch
// when it was cleaned up). A conflict fix also merges the default branch here (fix-conflicts-flow).

export async function prepareWorkdir(db: Db, execution: Execution, log: WorkdirLog): Promise<PreparedWorkdir> {
  const dir = agentWorkdir(execution.workspaceId, execution.taskId);
  const repository = await db.workspaceRepository.findUnique({ where: { workspaceId: execution.workspaceId } });
  // The address guard may refuse the remote (lib/repositories/reach-remote.ts): the run fails in its words.
  let remote = repository
    ? await gitRemoteFor(db, execution.workspaceId).catch((error: Error) => {
        throw new WorkdirError(error.message);
      })
    : null;
  if (!repository || !remote) {
    if (execution.trigger === RUN_TRIGGER.fix_conflicts) throw new WorkdirError("The workspace has no repository to merge in");
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    return { cwd: dir, branch: null };
  }
  const cloneDir = repositoryCloneDir(execution.workspaceId);
  const defaultBranch = repository.defaultBranch;

  await log("git", { step: "sync", message: `Fetching ${remote.url}` });
  // A token revoked or expired early is refused once: the run goes on with a freshly minted one.
  const synced = await syncClone(remote.url, cloneDir, remote.env).then(
    () => null,
    (error: Error) => error,
  );
  if (synced && remote.env && isGitAuthFailure(synced.message))
    remote = (await gitRemoteFor(db, execution.workspaceId, { fresh: true })) ?? remote;
  if (synced) {
    const retry = remote;
    await syncClone(retry.url, cloneDir, retry.env).catch((error: Error) => {
      throw new WorkdirError(`git could not fetch ${retry.url}: ${remoteFailureMessage(error.message)}`);
    });
  }

  const branch = await taskBranch(db, execution);
  if (execution.trigger === RUN_TRIGGER.fix_conflicts && !branch.existing) {
    throw new WorkdirError("The task has no branch to merge into");
  }
  if (branch.created) await log("git", { step: "branch", message: `The task's branch is ${branch.name}` });

  const reused = fs.existsSync(`${dir}/.git`);
  if (!reused && fs.existsSync(dir)) {
    // A scratch directory from runs before the repository was connected: a worktree needs the place.
    fs.rmSync(dir, { recursive: true, force: true });
  }
  await ensureWorktree(cloneDir, dir, branch.name, defaultBranch).catch((error: Error) => {
    throw new WorkdirError(`git could not make the task's worktree on ${branch.name}: ${lastLine(error.message)}`);
  });
  await recordWorktree(db, { taskId: execution.taskId, workspaceId: execution.workspaceId, path: dir, branch: branch.name });
  if (await mergeInProgress(dir)) {
    // A fix that was cancelled before its agent started left its merge behind.
    await abortMerge(dir);
    await log("git", { step: "abort", message: "Aborted a merge an earlier run left unfinished" });
  }
  await log("git", {
    step: "worktree",
    message: reused ? `Reusing the task's worktree on ${branch.name}` : `Made the task's worktree on ${branch.name} in ${dir}`,
  });

  if (execution.trigger === RUN_TRIGGER.fix_conflicts) {
    return mergeForFix({ execution, cloneDir, dir, branch: branch.name, defaultBranch, remote, log });
  }
  return { cwd: dir, branch: branch.name };
}

/**
 * The task's branch: the one a person or script set (a PR branch made elsewhere), else
 * `tb/<number>-<slug>`, stored on the task by its first run. Only a task still without a branch is
 * changed, so a PATCH racing the run wins.
 */
async function taskBranch(db: Db, execution: Execution): Promise<{ name: string; created: boolean; existing: boolean }> {
  const task = await db.task.findUniqueOrThrow({ where: { id: execution.taskId }, select: { number: true, title: true, branch: true } });
  if (task.branch) return { name: task.branch, created: false, existing: true };
  const name = taskBranchName(task.number, task.title);
  const stored = await db.$transaction(async (tx) => {
    const { count } = await tx.task.updateMany({ where: { id: execution.taskId, branch: null }, data: { branch: name } });
    if (count > 0) await recordEvents(tx, execution.workspaceId, [{ type: "task.updated", taskId: execution.taskId }]);
    return count > 0;
  });
  if (stored) return { name, created: true, existing: false };
  const now = await db.task.findUniqueOrThrow({ where: { id: execution.taskId }, select: { branch: true } });
  return { name: now.branch ?? name, created: false, existing: true };
}
