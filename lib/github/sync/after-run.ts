import { HttpError } from "@/lib/platform/errors";
import type { Db } from "@/lib/db/client";
import type { Execution } from "@/lib/generated/prisma/client";
import { githubAppFromEnv } from "@/lib/github/client/app-client";
import { boardUrl } from "@/lib/github/sync/board-url";
import { openTaskPullRequest } from "@/lib/github/sync/open-task-pull-request";
import { branchState, hasClone } from "@/lib/git/task-branch-git";
import { pushTaskBranch } from "@/lib/git/remote/push-task-branch";
import { repositoryCloneDir } from "@/lib/repositories/repository";
import { withGitRemote } from "@/lib/git/remote/git-remote-for";
import { RUN_STATUS } from "@/lib/runs/statuses";

// What a successful run means for GitHub, after it is recorded and off the runner's path (the
// promise is not awaited; failures are logged): a task whose pull request is open gets the run's
// commits pushed to it (a fix for failed checks or a review lands on the PR), and with the
// workspace's auto_open_pull_request a task without one gets its pull request opened, exactly as
// "Open pull request" would — when the run left commits on the branch (otherwise the 409 is quiet).

export function afterRunFinished(db: Db, execution: Execution): void {
  if (execution.status !== RUN_STATUS.succeeded) return;
  void followRun(db, execution).catch((error: unknown) =>
    console.error(`[taskboard] github after run ${execution.id}: ${error instanceof Error ? error.message : String(error)}`),
  );
}

async function followRun(db: Db, execution: Execution) {
  const task = await db.task.findUnique({
    where: { id: execution.taskId },
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
    const cloneDir = repositoryCloneDir(execution.workspaceId);
    if (!hasClone(cloneDir)) return;
    await withGitRemote(db, execution.workspaceId, async (remote) => {
      const state = await branchState(cloneDir, remote, branch, task.workspace.repository?.defaultBranch ?? "main");
      if (state?.local) await pushTaskBranch(db, { workspaceId: execution.workspaceId, taskId: execution.taskId, branch }, remote);
    });
    return;
  }
  if (!task.workspace.githubAutoOpenPr) return;
  await openTaskPullRequest(db, execution.workspaceId, execution.taskId, { boardUrl: boardUrl() }).catch((error: unknown) => {
    // Nothing to propose (no commits, no branch) is the common 409 here, not a failure.
    if (error instanceof HttpError && error.status === 409) return;
    throw error;
  });
}
