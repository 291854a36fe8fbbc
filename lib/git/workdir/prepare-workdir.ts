import fs from "node:fs";
import type { Db } from "@/lib/db/client";
import type { Execution } from "@/lib/generated/prisma/client";
import { recordEvents } from "@/lib/events/record-events";
import { abortMerge, currentBranch, ensureWorktree, mergeInProgress, refSha, syncClone, taskBranchName } from "@/lib/git/task-worktree";
import { isGitAuthFailure } from "@/lib/git/remote/github-remote";
import { gitRemoteFor } from "@/lib/git/remote/git-remote-for";
import { foreignBranchReason } from "@/lib/repositories/foreign-branch";
import { repositoryCloneDir } from "@/lib/repositories/repository";
import { remoteFailureMessage } from "@/lib/git/remote/remote-failure";
import { agentWorkdir } from "@/lib/platform/runner-config";
import { RUN_TRIGGER } from "@/lib/runs/statuses";
import { mergeForFix } from "@/lib/git/workdir/fix-conflicts-flow";
import { withAgentMerging } from "@/lib/runs/instructions";
import { restoreGitfile } from "@/lib/git/worktree-guard";
import { recordWorktree } from "@/lib/worktrees/worktree-records";
import { lastLine, WorkdirError, type PreparedWorkdir, type WorkdirLog } from "@/lib/git/workdir/workdir";

// Where an execution's agent works, made ready before the agent starts. Without a repository: an
// empty scratch directory per task, as before (a conflict fix is then the agent's own git work,
// with instructions saying so). With one: the server's clone is fetched, and the task's own
// worktree on the task's own branch is made (or reused, or made again from the branch when it was
// cleaned up). A conflict fix also merges the default branch here (fix-conflicts-flow), into a
// branch that must already exist on the remote: a fix never creates one.

export async function prepareWorkdir(db: Db, execution: Execution, log: WorkdirLog): Promise<PreparedWorkdir> {
  const dir = agentWorkdir(execution.workspaceId, execution.taskId);
  const repository = await db.workspaceRepository.findUnique({ where: { workspaceId: execution.workspaceId } });
  // The address guard may refuse the remote (lib/git/remote/reach-remote.ts): the run fails in its words.
  let remote = repository
    ? await gitRemoteFor(db, execution.workspaceId).catch((error: Error) => {
        throw new WorkdirError(error.message);
      })
    : null;
  const fixing = execution.trigger === RUN_TRIGGER.fix_conflicts;
  if (!repository || !remote) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    return { cwd: dir, branch: null, ...(fixing ? { instructions: withAgentMerging(execution.instructions) } : {}) };
  }
  const cloneDir = repositoryCloneDir(execution.workspaceId);
  const defaultBranch = repository.defaultBranch;

  await log("git", { step: "sync", message: `Fetching ${remote.url}` });
  // A token revoked or expired early is refused once: the run goes on with a freshly minted one.
  const synced = await syncClone(remote.url, cloneDir, remote.access).then(
    () => null,
    (error: Error) => error,
  );
  if (synced && isGitAuthFailure(synced.message)) remote = (await gitRemoteFor(db, execution.workspaceId, { fresh: true })) ?? remote;
  if (synced) {
    const retry = remote;
    await syncClone(retry.url, cloneDir, retry.access).catch((error: Error) => {
      throw new WorkdirError(`git could not fetch ${retry.url}: ${remoteFailureMessage(error.message)}`);
    });
  }

  const branch = fixing ? await branchToFix(db, execution, cloneDir, defaultBranch, remote.url) : await taskBranch(db, execution);
  if (branch.created) await log("git", { step: "branch", message: `The task's branch is ${branch.name}` });

  const reused = fs.existsSync(`${dir}/.git`);
  if (!reused && fs.existsSync(dir)) {
    // A scratch directory from runs before the repository was connected: a worktree needs the place.
    fs.rmSync(dir, { recursive: true, force: true });
  }
  await ensureWorktree(cloneDir, dir, branch.name, defaultBranch).catch((error: Error) => {
    throw new WorkdirError(`git could not make the task's worktree on ${branch.name}: ${lastLine(error.message)}`);
  });
  const worktree = { cloneDir, dir };
  if (reused && restoreGitfile(worktree)) {
    // An earlier run's agent pointed `.git` elsewhere; git never followed it (lib/git/worktree-guard.ts).
    await log("git", {
      step: "guard",
      message: "The worktree's .git had been changed by an earlier run: it was pointed back at its git directory",
    });
  }
  const checkedOut = fixing ? await currentBranch(worktree) : branch.name;
  if (checkedOut !== branch.name) {
    // A worktree made before the task's branch was changed: merging there would fix another branch.
    throw new WorkdirError(`The task's worktree is on ${checkedOut}, not on ${branch.name}: nothing was merged`);
  }
  await recordWorktree(db, { taskId: execution.taskId, workspaceId: execution.workspaceId, path: dir, branch: branch.name });
  if (await mergeInProgress(worktree)) {
    // A fix that was cancelled before its agent started left its merge behind.
    await abortMerge(worktree);
    await log("git", { step: "abort", message: "Aborted a merge an earlier run left unfinished" });
  }
  await log("git", {
    step: "worktree",
    message: reused ? `Reusing the task's worktree on ${branch.name}` : `Made the task's worktree on ${branch.name} in ${dir}`,
  });

  if (fixing) {
    return mergeForFix({ db, execution, cloneDir, dir, branch: branch.name, defaultBranch, remote, log });
  }
  return { cwd: dir, branch: branch.name };
}

/**
 * The branch a conflict fix merges into: the task's own (foreignBranchReason), as the remote has it
 * after the fetch. Never made here: a task without one, or one missing on the remote, fails in words
 * before anything is merged or pushed. A task that knows only its pull request's head branch keeps it.
 */
async function branchToFix(db: Db, execution: Execution, cloneDir: string, defaultBranch: string, url: string) {
  const task = await db.task.findUniqueOrThrow({
    where: { id: execution.taskId },
    select: { number: true, branch: true, prHeadBranch: true },
  });
  const name = task.branch ?? task.prHeadBranch;
  if (!name) throw new WorkdirError("The task has no branch to merge into");
  const foreign = foreignBranchReason(name, task, defaultBranch);
  if (foreign) throw new WorkdirError(foreign);
  if (!(await refSha({ cloneDir }, `refs/remotes/origin/${name}`))) {
    throw new WorkdirError(
      `The branch ${name} does not exist on ${url}: a conflict fix merges into the pull request's branch and never creates one`,
    );
  }
  if (!task.branch) await storeBranch(db, execution, name);
  return { name, created: false };
}

/**
 * The task's branch: the one a person or script set (a PR branch made elsewhere), else
 * `tb/<number>-<slug>`, stored on the task by its first run. Only a task still without a branch is
 * changed, so a PATCH racing the run wins.
 */
async function taskBranch(db: Db, execution: Execution): Promise<{ name: string; created: boolean }> {
  const task = await db.task.findUniqueOrThrow({ where: { id: execution.taskId }, select: { number: true, title: true, branch: true } });
  if (task.branch) return { name: task.branch, created: false };
  const name = taskBranchName(task.number, task.title);
  const stored = await storeBranch(db, execution, name);
  if (stored) return { name, created: true };
  const now = await db.task.findUniqueOrThrow({ where: { id: execution.taskId }, select: { branch: true } });
  return { name: now.branch ?? name, created: false };
}

/** Sets the task's branch only while it has none, so a PATCH racing the run wins; true when stored. */
async function storeBranch(db: Db, execution: Execution, name: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.task.updateMany({ where: { id: execution.taskId, branch: null }, data: { branch: name } });
    if (count > 0) await recordEvents(tx, execution.workspaceId, [{ type: "task.updated", taskId: execution.taskId }]);
    return count > 0;
  });
}
