import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { branchChanges, commitAll, ensureWorktree, mergeInProgress, syncClone } from "@/lib/git/task-worktree";
import { RUN_TRIGGER } from "@/lib/runs/statuses";
import { lastLine, WorkdirError, type PreparedWorkdir, type WorkdirLog } from "@/lib/git/workdir/workdir";
import { withAgentMerging } from "@/lib/runs/instructions";
import type { Job } from "@/lib/runners/protocol-schemas";
import { agentWorkdir } from "@/lib/platform/runner-config";
import type { Concluded, ExecutionFacts } from "@/lib/runner/runner-port";

// A runner process's working directories, from what the job says: without a repository a scratch
// directory per task; with one, the runner's own clone of it (fetched with the job's credential)
// and the task's worktree on the task's branch. After the agent, its changes are committed on the
// branch and the branch's changes against its base go back with the outcome.

/** The runner's clones, one per workspace (never the server's DATA_DIR). */
function cloneDir(workspaceId: string): string {
  const base = process.env.RUNNER_DIR?.trim() || path.join(os.tmpdir(), "taskboard-runner");
  return path.join(base, "repos", workspaceId);
}

export async function prepareJobWorkdir(
  job: Job,
  log: WorkdirLog,
  report: (facts: ExecutionFacts) => Promise<void>,
): Promise<PreparedWorkdir> {
  const dir = agentWorkdir(job.workspace_id, job.task.id);
  const fixing = job.trigger === RUN_TRIGGER.fix_conflicts;
  const repository = job.repository;
  if (!repository) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    return { cwd: dir, branch: null, ...(fixing ? { instructions: withAgentMerging(job.instructions) } : {}) };
  }
  // The merge of a conflict fix pushes through the server's branch rules, which a runner process does not hold yet.
  if (fixing) throw new WorkdirError("A conflict fix with a repository runs on the server's embedded runner only (docs/runners.md)");
  const clone = cloneDir(job.workspace_id);
  await log("git", { step: "sync", message: `Fetching ${repository.url}` });
  await syncClone(repository.url, clone, repository.access).catch((error: Error) => {
    throw new WorkdirError(`git could not fetch ${repository.url}: ${lastLine(error.message)}`);
  });
  const reused = fs.existsSync(`${dir}/.git`);
  if (!reused && fs.existsSync(dir)) fs.rmSync(dir, { recursive: true, force: true });
  await ensureWorktree(clone, dir, repository.branch, repository.default_branch).catch((error: Error) => {
    throw new WorkdirError(`git could not make the task's worktree on ${repository.branch}: ${lastLine(error.message)}`);
  });
  await report({ worktree: { path: dir, branch: repository.branch } });
  await log("git", {
    step: "worktree",
    message: reused ? `Reusing the task's worktree on ${repository.branch}` : `Made the task's worktree on ${repository.branch} in ${dir}`,
  });
  return { cwd: dir, branch: repository.branch };
}

export async function concludeJobWorkdir(job: Job, cwd: string, log: WorkdirLog): Promise<Concluded> {
  const repository = job.repository;
  if (!repository || !fs.existsSync(path.join(cwd, ".git"))) return {};
  const worktree = { cloneDir: cloneDir(job.workspace_id), dir: cwd };
  try {
    if (!(await mergeInProgress(worktree))) {
      const message = `#${job.task.number} ${job.task.title}\n\nTask ${job.task.id} (execution ${job.execution_id}).`;
      if (await commitAll(worktree, message))
        await log("git", { step: "commit", message: `Committed the agent's changes on ${repository.branch}` });
    }
    const changes = await branchChanges(worktree, repository.default_branch);
    return {
      changes: {
        commit_sha: changes.commitSha,
        files_changed: changes.filesChanged,
        lines_added: changes.linesAdded,
        lines_removed: changes.linesRemoved,
      },
    };
  } catch (error) {
    return { failed: `git: ${lastLine((error as Error).message)}` };
  }
}
