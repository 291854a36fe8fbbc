import fs from "node:fs";
import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import type { Runner } from "@/lib/generated/prisma/client";
import { InvalidBundle, storeBranchBundle } from "@/lib/git/bundle/store-branch-bundle";
import { withGitRemote } from "@/lib/git/remote/git-remote-for";
import { syncClone } from "@/lib/git/task-worktree";
import { lastLine } from "@/lib/git/workdir/workdir";
import { conflict, ValidationError } from "@/lib/platform/errors";
import { foreignBranchReason } from "@/lib/repositories/foreign-branch";
import { repositoryCloneDir } from "@/lib/repositories/repository";
import { openRunnerExecution } from "@/lib/dispatch/runner-execution";
import type { bundleResponse } from "@/lib/runner-protocol";

// PUT /api/runner/executions/{id}/bundle: the runner's git bundle of the task's branch after a run,
// taken into the server's clone (lib/git/bundle/store-branch-bundle.ts), so the branch can be pushed
// from here (Open pull request, the push to an open pull request) whichever runner ran it. Only the
// task's own branch (the push door's rule, lib/repositories/foreign-branch.ts) is taken, never the
// default branch. A bundle git cannot take here (its base missing even after a fetch, a branch that
// went another way) is answered 200 with the reason, for the run's log: the run's outcome is not the
// server's clone's business. A run that has ended takes it only before its runner reports the finish
// (lib/runs/ended-run.ts).

export async function storeRunnerBundle(
  db: Db,
  runner: Runner,
  executionId: string,
  /** Saves the request's body to a file (the route's, lib/api/save-request-body.ts): read only once the run and branch pass. */
  saveBody: () => Promise<{ file: string; bytes: number }>,
): Promise<z.output<typeof bundleResponse>> {
  const execution = await openRunnerExecution(db, runner, executionId, { windDown: "the bundle is" });
  const task = await db.task.findFirst({
    where: { id: execution.taskId, workspaceId: execution.workspaceId },
    select: { number: true, branch: true, prHeadBranch: true, workspace: { select: { repository: { select: { defaultBranch: true } } } } },
  });
  const repository = task?.workspace.repository;
  if (!task || !repository) throw conflict("The task or its workspace's repository is gone: the bundle was not stored");
  const branch = task.branch;
  if (!branch) throw conflict("The task has no branch: the bundle was not stored");
  const reason = foreignBranchReason(branch, task, repository.defaultBranch);
  if (reason) throw conflict(`${reason}; the bundle was not stored`);

  const { file, bytes } = await saveBody();
  try {
    if (bytes === 0) throw invalid("The body is empty: a git bundle was expected");
    const cloneDir = repositoryCloneDir(execution.workspaceId);
    const refresh = async () => {
      const fetched = await withGitRemote(db, execution.workspaceId, (remote) => syncClone(remote.url, cloneDir, remote.access));
      if (fetched === null) throw new Error("the workspace has no repository");
    };
    const result = await storeBranchBundle(cloneDir, file, branch, refresh).catch((error: Error) => {
      if (error instanceof InvalidBundle) throw invalid(error.message);
      // git or the remote failed here (unreachable, a refused token, a clone that fails its checks): words for the run's log.
      return { stored: false as const, commitSha: null, message: `git: ${lastLine(error.message).slice(0, 500)}` };
    });
    return {
      branch,
      commit_sha: result.commitSha,
      stored: result.stored,
      message: result.stored ? null : `The run's commits on ${branch} were not stored on the server: ${result.message}`,
    };
  } finally {
    fs.rmSync(file, { force: true });
  }
}

function invalid(message: string) {
  return new ValidationError([{ type: "value_error", loc: ["body"], msg: message }]);
}
