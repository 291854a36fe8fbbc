import fs from "node:fs";
import os from "node:os";
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
  ensureWorktree,
  mergeInProgress,
  refSha,
  syncClone,
  type Worktree,
} from "@/lib/git/task-worktree";
import { restoreGitfile } from "@/lib/git/worktree-guard";
import { concludeFix, mergeForFix, type MergeContext } from "@/lib/git/workdir/fix-conflicts-flow";
import { lastLine, WorkdirError, type PreparedWorkdir, type WorkdirLog } from "@/lib/git/workdir/workdir";
import { RUN_TRIGGER } from "@/lib/runs/statuses";
import { withAgentMerging } from "@/lib/runs/instructions";
import { directoryBytes } from "@/lib/worktrees/worktree-records";
import type { Job } from "@/lib/runners/protocol-schemas";
import { agentWorkdir } from "@/lib/platform/runner-config";
import type { Concluded, RunnerPort } from "@/lib/runner/runner-port";
import { ProtocolError } from "@/lib/runner/protocol-client";

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

/** The runner's clones, one per workspace. The embedded runner's RUNNER_DIR is the server's DATA_DIR. */
function cloneDir(workspaceId: string): string {
  const base = process.env.RUNNER_DIR?.trim() || path.join(os.tmpdir(), "taskboard-runner");
  return path.join(base, "repos", workspaceId);
}

export async function prepareJobWorkdir(port: JobPort, job: Job, log: WorkdirLog): Promise<PreparedWorkdir> {
  const dir = agentWorkdir(job.workspace_id, job.task.id);
  const fixing = job.trigger === RUN_TRIGGER.fix_conflicts;
  const repository = job.repository;
  if (!repository) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    return { cwd: dir, branch: null, ...(fixing ? { instructions: withAgentMerging(job.instructions) } : {}) };
  }
  const clone = cloneDir(job.workspace_id);
  const access = await fetchClone(port, job, repository, clone, log);
  const branch = repository.branch;
  if (fixing && !(await refSha({ cloneDir: clone }, `refs/remotes/origin/${branch}`))) {
    throw new WorkdirError(
      `The branch ${branch} does not exist on ${repository.url}: a conflict fix merges into the pull request's branch and never creates one`,
    );
  }
  const reused = fs.existsSync(`${dir}/.git`);
  // A scratch directory from runs before the repository was connected: a worktree needs the place.
  if (!reused && fs.existsSync(dir)) fs.rmSync(dir, { recursive: true, force: true });
  await ensureWorktree(clone, dir, branch, repository.default_branch).catch((error: Error) => {
    throw new WorkdirError(`git could not make the task's worktree on ${branch}: ${lastLine(error.message)}`);
  });
  const worktree = { cloneDir: clone, dir };
  if (reused && restoreGitfile(worktree)) {
    // An earlier run's agent pointed `.git` elsewhere; git never followed it (lib/git/worktree-guard.ts).
    await log("git", {
      step: "guard",
      message: "The worktree's .git had been changed by an earlier run: it was pointed back at its git directory",
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
  if (!fixing) return { cwd: dir, branch };
  const prepared = await mergeForFix({ ...mergeContext(port, job, repository, worktree, log), access });
  // The agent is skipped, so no conclusion follows: the merged branch's diff goes up here.
  if (prepared.skipAgent) {
    await uploadDiff(port, job, worktree, log);
    await uploadBundle(port, job, worktree, log);
  }
  return prepared;
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
  // A scratch directory (a `.git` an agent replaced by a link is still checked by every git command).
  if (!repository || !fs.lstatSync(path.join(cwd, ".git"), { throwIfNoEntry: false })) return {};
  const worktree = { cloneDir: cloneDir(job.workspace_id), dir: cwd };
  let result: Concluded = {};
  try {
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
  } catch (error) {
    result = { failed: `git: ${lastLine((error as Error).message)}` };
  }
  await uploadDiff(port, job, worktree, log);
  await uploadBundle(port, job, worktree, log);
  const bytes = await directoryBytes(cwd).catch(() => null);
  // Only for display: a run the server ended meanwhile takes no more facts (409), and the run's result stands.
  if (bytes !== null) await port.update(job.execution_id, { worktree: { path: cwd, branch: repository.branch, bytes } }).catch(() => {});
  return result;
}

/** Fetches the clone; a token refused (revoked, expired early) is replaced once by a fresh one. Returns the access that worked. */
async function fetchClone(port: JobPort, job: Job, repository: Repository, clone: string, log: WorkdirLog) {
  await log("git", { step: "sync", message: `Fetching ${repository.url}` });
  const failed = await syncClone(repository.url, clone, repository.access).then(
    () => null,
    (error: Error) => error,
  );
  if (!failed) return repository.access;
  const access = isGitAuthFailure(failed.message) ? (await port.remote(job.execution_id, { fresh: true })).access : repository.access;
  await syncClone(repository.url, clone, access).catch((error: Error) => {
    throw new WorkdirError(`git could not fetch ${repository.url}: ${remoteFailureMessage(error.message)}`);
  });
  return access;
}

function mergeContext(port: JobPort, job: Job, repository: Repository, worktree: Worktree, log: WorkdirLog): MergeContext {
  return {
    executionId: job.execution_id,
    instructions: job.instructions,
    cloneDir: worktree.cloneDir,
    dir: worktree.dir,
    branch: repository.branch,
    defaultBranch: repository.default_branch,
    access: repository.access,
    log,
    // The server says whether the branch is still the task's own, now, and gives a fresh credential.
    push: async () => {
      const remote = await port.remote(job.execution_id, { push: repository.branch });
      await pushRef(worktree.cloneDir, { url: repository.url, access: remote.access }, repository.branch);
    },
  };
}

/** The branch's diff against its base, computed here and stored by the server; a failure is logged, never the run's. */
async function uploadDiff(port: JobPort, job: Job, worktree: Worktree, log: WorkdirLog) {
  try {
    const branch = await currentBranch(worktree);
    if (branch === "HEAD") return;
    const limits = { maxBytes: diffMaxBytes(), maxFileBytes: diffMaxFileBytes() };
    const diff = await computeBranchDiff(worktree.cloneDir, branch, `refs/heads/${branch}`, job.repository!.default_branch, limits);
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
async function uploadBundle(port: JobPort, job: Job, worktree: Worktree, log: WorkdirLog) {
  const dir = path.join(os.tmpdir(), "taskboard-bundles");
  const file = path.join(dir, `${job.execution_id}.bundle`);
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.rmSync(file, { force: true });
    const repository = job.repository!;
    if (!(await createBranchBundle(worktree.cloneDir, repository.branch, repository.default_branch, file))) return;
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
