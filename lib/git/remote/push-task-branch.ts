import type { Db } from "@/lib/db/client";
import { pushRef } from "@/lib/git/task-branch-git";
import type { GitRemote } from "@/lib/git/remote/git-remote-for";
import { foreignBranchReason } from "@/lib/repositories/foreign-branch";
import { repositoryCloneDir } from "@/lib/repositories/repository";

// The one door through which the board pushes to a workspace's repository (after a run to the open
// pull request, Open pull request, fix-conflicts). A task's `branch` can be set by hand, by a script
// or by a linked pull request, so a push must not trust it: what is pushed is only the task's own
// branch, that is the `tb/<number>-<slug>` branch the board makes for it, or the head branch of the
// pull request GitHub linked to it when that branch lives in the workspace's repository
// (`pr_head_branch`, written only from GitHub's webhooks and by Open pull request). Never the
// repository's default branch, whatever the task says.

/** A push the board refused; the message says why, in words. */
export class BranchRefused extends Error {}

/**
 * Pushes the commit the task's last run recorded to the workspace's repository's `branch`, after
 * checking the branch is the task's own, as a compare-and-swap on where the board last saw the
 * remote's branch (lib/git/task-branch-git.ts pushRef); returns the pushed head. Never whatever the
 * server clone's branch points at: the commit the run reported is the one people reviewed.
 * Throws BranchRefused, before any git command, for any other branch or when no run recorded a commit.
 */
export async function pushTaskBranch(
  db: Db,
  target: { workspaceId: string; taskId: string; branch: string },
  remote: GitRemote,
): Promise<string> {
  const task = await db.task.findFirst({
    where: { id: target.taskId, workspaceId: target.workspaceId },
    select: { number: true, prHeadBranch: true, workspace: { select: { repository: { select: { defaultBranch: true } } } } },
  });
  if (!task) throw new BranchRefused(`The task is gone: ${target.branch} was not pushed`);
  const repository = task.workspace.repository;
  if (!repository) throw new BranchRefused(`The workspace has no repository: ${target.branch} was not pushed`);
  const reason = foreignBranchReason(target.branch, task, repository.defaultBranch);
  if (reason) throw new BranchRefused(reason);
  const run = await db.taskRun.findFirst({
    where: { taskId: target.taskId, commitSha: { not: null } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: { commitSha: true },
  });
  if (!run?.commitSha) throw new BranchRefused(`No run of the task recorded a commit on ${target.branch}: nothing was pushed`);
  return pushRef(repositoryCloneDir(target.workspaceId), remote, target.branch, run.commitSha);
}
