import { conflict, HttpError } from "@/lib/platform/errors";
import type { Db } from "@/lib/db/client";
import { githubAppFromEnv } from "@/lib/github/client/app-client";
import { boardUrl } from "@/lib/github/sync/board-url";
import { openTaskPullRequest } from "@/lib/github/sync/open-task-pull-request";
import { branchState, hasClone } from "@/lib/git/task-branch-git";
import { BranchRefused, pushTaskBranch } from "@/lib/git/remote/push-task-branch";
import { repositoryCloneDir } from "@/lib/repositories/repository";
import { withGitRemote } from "@/lib/git/remote/git-remote-for";

// What a successful run means for GitHub (the github-after-run reaction, lib/reactions/): a task
// whose pull request is open gets the run's commits pushed to it (a fix for failed checks or a
// review lands on the PR), and with the workspace's auto_open_pull_request a task without one gets
// its pull request opened, exactly as "Open pull request" would — when the run left commits on the
// branch (otherwise the 409 is quiet). Safe to call twice: a pushed branch has nothing left to push,
// and an opened pull request is not opened again.

export async function followSuccessfulRun(db: Db, workspaceId: string, taskId: string): Promise<void> {
  const task = await db.task.findUnique({
    where: { id: taskId },
    select: {
      branch: true,
      prUrl: true,
      prState: true,
      workspace: {
        select: { githubAutoOpenPr: true, githubInstallationId: true, githubRepo: true, repository: { select: { defaultBranch: true } } },
      },
    },
  });
  if (!task?.branch || task.workspace.githubInstallationId === null || task.workspace.githubRepo === null || !githubAppFromEnv()) return;
  const open = task.prUrl !== null && (task.prState === "open" || task.prState === "draft");
  if (open) {
    const branch = task.branch;
    const cloneDir = repositoryCloneDir(workspaceId);
    if (!hasClone(cloneDir)) return;
    await withGitRemote(db, workspaceId, async (remote) => {
      const state = await branchState(cloneDir, remote, branch, task.workspace.repository?.defaultBranch ?? "main");
      if (!state?.local) return;
      await pushTaskBranch(db, { workspaceId, taskId, branch }, remote).catch((error: unknown) => {
        // Not the task's own branch: the board's answer, which asking again does not change.
        throw error instanceof BranchRefused ? conflict(error.message) : error;
      });
    });
    return;
  }
  if (!task.workspace.githubAutoOpenPr) return;
  await openTaskPullRequest(db, workspaceId, taskId, { boardUrl: boardUrl() }).catch((error: unknown) => {
    // Nothing to propose (no commits, no branch) is the common 409 here, not a failure.
    if (error instanceof HttpError && error.status === 409) return;
    throw error;
  });
}
