import fs from "node:fs";
import path from "node:path";
import { diffMaxBytes, diffMaxFileBytes } from "@/lib/config";
import { computeBranchDiff } from "@/lib/git/branch-diff";
import { createBranchBundle } from "@/lib/git/bundle/create-branch-bundle";
import { isGitAuthFailure } from "@/lib/git/remote/github-remote";
import { remoteFailureMessage } from "@/lib/git/remote/remote-failure";
import { pushRef } from "@/lib/git/task-branch-git";
import {
  abortMerge,
  branchChanges,
  commitAll,
  currentBranch,
  mergeInProgress,
  refSha,
  syncClone,
  type Worktree,
} from "@/lib/git/task-worktree";
import {
  cloneObjects,
  ensureTaskRepository,
  fetchTaskBranch,
  checkTaskRepository,
  taskGitDir,
  taskPlace,
  type TaskRepository,
} from "@/lib/git/task-repository";
import { concludeFix, mergeForFix, type MergeContext } from "@/lib/git/workdir/fix-conflicts-flow";
import { lastLine, WorkdirError, type PreparedWorkdir, type WorkdirLog } from "@/lib/git/workdir/workdir";
import { RUN_TRIGGER } from "@/lib/runs/statuses";
import { withAgentMerging } from "@/lib/runs/instructions";
import { directoryBytes } from "@/lib/worktrees/worktree-records";
import type { Job } from "@/lib/runner-protocol";
import { agentWorkdir, bundlesDir } from "@/lib/platform/runner-config";
import { runnerPrivateDir } from "@/lib/platform/private-dir";
import type { Concluded, RunnerPort } from "@/lib/runner-process/runner-port";
import { ProtocolError } from "@/lib/runner-process/protocol-client";

// A run's working directory on its runner, from what the job says. Without a repository: a scratch
// directory per task. With one: the runner's clone (fetched with the job's credential for that one
// repository) and the task's worktree on the branch the server chose. After the agent, its changes
// are committed on the branch, and the branch's changes and diff against its base go to the server,
// and its commits too, as a git bundle the server takes into its own clone (so a pull request can
// be opened or pushed from there whichever machine ran the run).
// A conflict fix merges the default branch first and pushes the merge (fix-conflicts-flow). Every git
// command checks the worktree first (lib/git/run-git.ts): an agent that tampered with `.git` or the
// repository's configuration fails the run in words.

type Repository = NonNullable<Job["repository"]>;
type JobPort = Pick<RunnerPort, "update" | "remote" | "diff" | "bundle">;

/** The runner's own directory: its clones, one per workspace, and its tasks' git directories. The embedded runner's RUNNER_DIR is the server's DATA_DIR. */
function runnerBase(): string {
  return process.env.RUNNER_DIR?.trim() || runnerPrivateDir();
}

function cloneDir(workspaceId: string): string {
  return path.join(runnerBase(), "repos", workspaceId);
}

/** The task's repository, every path of it the runner's own choice (lib/git/task-repository.ts). */
function taskRepository(job: Job, dir: string): TaskRepository {
  return { clone: cloneDir(job.workspace_id), gitDir: taskGitDir(runnerBase(), job.workspace_id, job.task.id), dir };
}

export async function prepareJobWorkdir(port: JobPort, job: Job, log: WorkdirLog): Promise<PreparedWorkdir> {
  const dir = agentWorkdir(job.workspace_id, job.task.id);
  const fixing = job.trigger === RUN_TRIGGER.fix_conflicts;
  const repository = job.repository;
  if (!repository) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    return { cwd: dir, branch: null, ...(fixing ? { instructions: withAgentMerging(job.instructions) } : {}) };
  }
  const repo = taskRepository(job, dir);
  await fetchClone(port, job, repository, repo.clone, log);
  const branch = repository.branch;
  if (fixing && !(await refSha({ cloneDir: repo.clone }, `refs/remotes/origin/${branch}`))) {
    throw new WorkdirError(
      `The branch ${branch} does not exist on ${repository.url}: a conflict fix merges into the pull request's branch and never creates one`,
    );
  }
  // A scratch directory from runs before the repository was connected: the repository needs the place.
  if (fs.existsSync(dir) && !fs.existsSync(`${dir}/.git`)) fs.rmSync(dir, { recursive: true, force: true });
  const ensured = await ensureTaskRepository(repo, branch, repository.default_branch).catch((error: Error) => {
    throw new WorkdirError(`git could not make the task's repository on ${branch}: ${lastLine(error.message)}`);
  });
  const reused = !ensured.made;
  const worktree = taskPlace(repo);
  if (ensured.restored) {
    // An earlier run's agent pointed `.git` or the alternates elsewhere; git never followed them (lib/git/worktree-guard.ts).
    await log("git", {
      step: "guard",
      message: "The worktree's .git had been changed by an earlier run (or its git directory's alternates or commondir): it was put back",
    });
  }
  const checkedOut = fixing ? await currentBranch(worktree) : branch;
  if (checkedOut !== branch) {
    // A worktree made before the task's branch was changed: merging there would fix another branch.
    throw new WorkdirError(`The task's worktree is on ${checkedOut}, not on ${branch}: nothing was merged`);
  }
  await port.update(job.execution_id, { worktree: { path: dir, branch } });
  if (await mergeInProgress(worktree)) {
    // A fix that was cancelled before its agent started left its merge behind.
    await abortMerge(worktree);
    await log("git", { step: "abort", message: "Aborted a merge an earlier run left unfinished" });
  }
  await log("git", {
    step: "worktree",
    message: reused ? `Reusing the task's worktree on ${branch}` : `Made the task's worktree on ${branch} in ${dir}`,
  });
  const git = { gitDir: repo.gitDir, readOnly: [cloneObjects(repo.clone)] };
  if (!fixing) return { cwd: dir, branch, git };
  const prepared = await mergeForFix(mergeContext(port, job, repository, worktree, log));
  // The agent is skipped, so no conclusion follows: the merged branch's diff goes up here.
  if (prepared.skipAgent) {
    // No agent ran: the merged branch as git left it is the run's result.
    await fetchTaskBranch(repo, branch, (await refSha(worktree, `refs/heads/${branch}`))!);
    await uploadDiff(port, job, repo.clone, log);
    await uploadBundle(port, job, repo.clone, log);
  }
  return { ...prepared, git };
}

/**
 * After the agent. `agentSucceeded` false (it failed, was cancelled or timed out): its partial work
 * is still committed on the branch, but a conflict fix's merge is aborted.
 */
export async function concludeJobWorkdir(
  port: JobPort,
  job: Job,
  cwd: string,
  log: WorkdirLog,
  agentSucceeded: boolean,
): Promise<Concluded> {
  const repository = job.repository;
  if (!repository) return {};
  const repo = taskRepository(job, cwd);
  const worktree = taskPlace(repo);
  let result: Concluded = {};
  try {
    checkTaskRepository(repo);
    if (job.trigger === RUN_TRIGGER.fix_conflicts) {
      result = await concludeFix(mergeContext(port, job, repository, worktree, log), agentSucceeded);
    } else if (!(await mergeInProgress(worktree))) {
      const message = `#${job.task.number} ${job.task.title}\n\nTask ${job.task.id} (execution ${job.execution_id}).`;
      if (await commitAll(worktree, message))
        await log("git", { step: "commit", message: `Committed the agent's changes on ${repository.branch}` });
    }
    const changes = await branchChanges(worktree, repository.default_branch);
    result.changes = {
      commit_sha: changes.commitSha,
      files_changed: changes.filesChanged,
      lines_added: changes.linesAdded,
      lines_removed: changes.linesRemoved,
    };
    // Only the task's branch, at the commit recorded, goes back into the clone.
    await fetchTaskBranch(repo, repository.branch, changes.commitSha);
  } catch (error) {
    result = { failed: `git: ${lastLine((error as Error).message)}` };
  }
  // Both read the clone, where only the recorded commit of the task's branch arrived.
  await uploadDiff(port, job, repo.clone, log);
  await uploadBundle(port, job, repo.clone, log);
  const bytes = await directoryBytes(cwd).catch(() => null);
  // Only for display: a run the server ended meanwhile takes no more facts (409), and the run's result stands.
  if (bytes !== null) await port.update(job.execution_id, { worktree: { path: cwd, branch: repository.branch, bytes } }).catch(() => {});
  return result;
}

/** Fetches the clone; a token refused (revoked, expired early) is replaced once by a fresh one. */
async function fetchClone(port: JobPort, job: Job, repository: Repository, clone: string, log: WorkdirLog) {
  await log("git", { step: "sync", message: `Fetching ${repository.url}` });
  const failed = await syncClone(repository.url, clone, repository.access).then(
    () => null,
    (error: Error) => error,
  );
  if (!failed) return;
  const access = isGitAuthFailure(failed.message) ? (await port.remote(job.execution_id, { fresh: true })).access : repository.access;
  await syncClone(repository.url, clone, access).catch((error: Error) => {
    throw new WorkdirError(`git could not fetch ${repository.url}: ${remoteFailureMessage(error.message)}`);
  });
}

function mergeContext(port: JobPort, job: Job, repository: Repository, worktree: Worktree, log: WorkdirLog): MergeContext {
  return {
    executionId: job.execution_id,
    instructions: job.instructions,
    cloneDir: worktree.cloneDir,
    dir: worktree.dir,
    branch: repository.branch,
    defaultBranch: repository.default_branch,
    log,
    // The server says whether the branch is still the task's own, now, and gives a fresh credential.
    push: async () => {
      const remote = await port.remote(job.execution_id, { push: repository.branch });
      await pushRef(worktree.cloneDir, { url: repository.url, access: remote.access }, repository.branch);
    },
  };
}

/** The branch's diff against its base, computed here from the clone and stored by the server; a failure is logged, never the run's. */
async function uploadDiff(port: JobPort, job: Job, clone: string, log: WorkdirLog) {
  try {
    const branch = job.repository!.branch;
    const limits = { maxBytes: diffMaxBytes(), maxFileBytes: diffMaxFileBytes() };
    const diff = await computeBranchDiff(clone, branch, `refs/heads/${branch}`, job.repository!.default_branch, limits);
    await port.diff(job.execution_id, {
      branch: diff.branch,
      base: diff.base,
      base_sha: diff.baseSha,
      commit_sha: diff.commitSha,
      files_changed: diff.filesChanged,
      lines_added: diff.linesAdded,
      lines_removed: diff.linesRemoved,
      truncated: diff.truncated,
      files: diff.files,
      patch: diff.patch,
    });
    if (diff.truncated)
      await log("git", { step: "diff", message: "The branch's diff is too large to keep whole: it was stored truncated" });
  } catch (error) {
    await log("git", { step: "diff", message: `The branch's diff was not recorded: ${lastLine((error as Error).message)}` });
  }
}

/**
 * The branch's commits beyond the default branch, as a git bundle the server takes into its own
 * clone (PUT …/bundle), before the outcome is reported: the push to an open pull request that the
 * outcome sets off finds them there. Delivered patiently like the diff; what the server could not
 * take, and any failure here, is logged in words and never fails the run.
 */
async function uploadBundle(port: JobPort, job: Job, clone: string, log: WorkdirLog) {
  const dir = bundlesDir();
  const file = path.join(dir, `${job.execution_id}.bundle`);
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.rmSync(file, { force: true });
    const repository = job.repository!;
    if (!(await createBranchBundle(clone, repository.branch, repository.default_branch, file))) return;
    const answer = await port.bundle(job.execution_id, fs.readFileSync(file));
    if (!answer.stored) await log("git", { step: "bundle", message: answer.message ?? "The server did not store the run's commits" });
  } catch (error) {
    await log("git", { step: "bundle", message: `The run's commits were not sent to the server: ${refusal(error)}` });
  } finally {
    fs.rmSync(file, { force: true });
  }
}

/** A failure in words: the server's refusal by its detail (a 413, a 422's messages), else git's last line. */
function refusal(error: unknown): string {
  if (!(error instanceof ProtocolError)) return lastLine((error as Error).message);
  const detail = (error.body as { detail?: unknown } | null)?.detail;
  const text = Array.isArray(detail) ? detail.map((entry: { msg?: unknown }) => String(entry?.msg)).join("; ") : String(detail);
  return `${text} (HTTP ${error.status})`;
}
