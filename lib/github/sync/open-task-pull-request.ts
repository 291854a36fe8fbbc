import { conflict, HttpError, notFound } from "@/lib/platform/errors";
import type { Db } from "@/lib/db/client";
import { githubAppFromEnv, statusOf } from "@/lib/github/client/app-client";
import { openPullRequest } from "@/lib/github/client/open-pull-request";
import { pullRequestBody } from "@/lib/github/client/pull-request-body";
import { repositoryCloneDir } from "@/lib/repositories/repository";
import { withGitRemote } from "@/lib/git/remote/git-remote-for";
import { RUN_STATUS } from "@/lib/runs/statuses";
import { lastLine } from "@/lib/git/workdir/workdir";
import { updateTask } from "@/lib/tasks/update-task";
import { branchState, hasClone } from "@/lib/git/task-branch-git";
import { BranchRefused, pushTaskBranch } from "@/lib/git/remote/push-task-branch";

// "Open pull request" for a task an agent worked on: the task's branch (in the server's clone, where
// runs leave their commits) is pushed to the connected GitHub repository, a pull request is opened
// with the task's title and a body of the last successful run's report and the task's link, and the
// task is linked to it and moves to in_review (updateTask: the same positions and task.updated event
// as a person's edit). A PR GitHub already has for that branch is linked instead of a second one.
// Every refusal is a 409 in words: no GitHub repository, no branch, nothing to propose.

export type OpenTaskPullRequestOptions = {
  /** Where people open the board (the task link in the body). */
  boardUrl: string;
  draft?: boolean;
};

export async function openTaskPullRequest(db: Db, workspaceId: string, taskId: string, options: OpenTaskPullRequestOptions) {
  const task = await db.task.findFirst({
    where: { id: taskId, workspaceId },
    select: {
      id: true,
      title: true,
      number: true,
      branch: true,
      prUrl: true,
      prState: true,
      workspace: { select: { githubInstallationId: true, githubRepo: true, repository: { select: { defaultBranch: true } } } },
    },
  });
  if (!task) throw notFound("Task");
  const { githubInstallationId: installationId, githubRepo: repo } = task.workspace;
  if (installationId === null || repo === null)
    throw conflict("No GitHub repository is connected to this workspace: connect one in Settings first");
  const github = githubAppFromEnv();
  if (!github) throw conflict("The GitHub App is not configured on this server (GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY)");
  if (task.prUrl && (task.prState === "open" || task.prState === "draft")) {
    throw conflict(`The task already has an open pull request: ${task.prUrl}`);
  }
  const branch = task.branch;
  if (!branch) throw conflict("The task has no branch yet: an agent run on it makes one");
  const base = task.workspace.repository?.defaultBranch ?? "main";
  const cloneDir = repositoryCloneDir(workspaceId);
  if (!hasClone(cloneDir)) throw conflict(`The branch ${branch} has no commits on this server yet: run an agent on the task first`);

  // Raw git errors reach withGitRemote (it retries a refused token once with a fresh one); they become 409s after.
  await withGitRemote(db, workspaceId, async (remote) => {
    const state = await branchState(cloneDir, remote, branch, base);
    if (!state || state.ahead === 0) throw conflict(`The branch ${branch} has no commits beyond ${base}: there is nothing to propose`);
    if (state.local) await pushTaskBranch(db, { workspaceId, taskId, branch }, remote);
  }).catch((error: Error) => {
    if (error instanceof HttpError) throw error;
    if (error instanceof BranchRefused) throw conflict(error.message);
    throw conflict(`git could not push ${branch} to ${repo}: ${lastLine(error.message).slice(0, 500)}`);
  });

  const report = await db.execution.findFirst({
    where: { taskId, status: RUN_STATUS.succeeded, report: { not: null } },
    orderBy: [{ finishedAt: "desc" }, { id: "desc" }],
    select: { report: true },
  });
  const body = pullRequestBody({
    report: report?.report ?? null,
    taskUrl: `${options.boardUrl.replace(/\/+$/, "")}/w/${workspaceId}?task=${taskId}`,
    taskId,
    taskNumber: task.number > 0 ? task.number : null,
  });
  const opened = await openPullRequest(github, installationId, repo, {
    head: branch,
    base,
    title: task.title,
    body,
    draft: options.draft,
  }).catch((error: unknown) => {
    const status = statusOf(error);
    if (status === undefined) throw error;
    // GitHub's own failure (5xx, rate limit) is worth trying again; its refusal (422: no commits
    // between the branches, say) is an answer.
    if (status >= 500 || status === 429) throw new HttpError(502, `GitHub did not open the pull request: ${(error as Error).message}`);
    throw conflict(`GitHub did not open the pull request: ${(error as Error).message}`);
  });

  const linked = await updateTask(
    db,
    workspaceId,
    taskId,
    { pr_url: opened.html_url, status: "in_review" },
    {
      pr_number: opened.number,
      pr_state: opened.draft ? "draft" : "open",
      pr_head_sha: opened.head_sha,
      pr_head_branch: branch,
      checks: null,
    },
  );
  return { created: opened.created, task: linked };
}
