import {
  abortMerge,
  changedFiles,
  concludeMerge,
  containsRef,
  mergeDefaultBranch,
  mergeInProgress,
  refSha,
  resetTo,
  type Worktree,
} from "@/lib/git/task-worktree";
import { filesWithMarkers } from "@/lib/git/conflict-markers";
import { lastLine, WorkdirError, type PreparedWorkdir, type WorkdirLog } from "@/lib/git/workdir/workdir";

// Fix-conflicts that really merges, on the runner (lib/runner-process/job-workdir.ts). Before the agent: the
// task's branch is brought up to date with its remote copy and the default branch is merged into
// it. A clean merge is pushed at once and the agent is skipped; a conflicted one is left in progress
// for the agent, whose instructions list the conflicted files. After the agent: the merge is
// committed only when no conflict marker remains, then pushed; anything else aborts the merge and
// fails the run in words. The task's has_merge_conflict is cleared by finishExecution only for a
// succeeded fix, that is, only after the push. Pushing is the caller's (`push`): the server chose
// the branch and checked it is the task's own before handing out the job.

export interface MergeContext {
  executionId: string;
  instructions: string;
  cloneDir: string;
  dir: string;
  branch: string;
  defaultBranch: string;
  log: WorkdirLog;
  /** Pushes `branch` from the clone; throws in words when it could not. */
  push: () => Promise<void>;
}

/** What the agent was left with, until its execution concludes (the same process runs both halves). */
const pending = new Map<string, { files: string[]; before: string }>();

export async function mergeForFix({
  executionId,
  instructions,
  cloneDir,
  dir,
  branch,
  defaultBranch,
  log,
  push,
}: MergeContext): Promise<PreparedWorkdir> {
  await log("git", { step: "merge", message: `Merging ${defaultBranch} into ${branch}` });
  const worktree = { cloneDir, dir };
  const before = (await refSha(worktree, "HEAD"))!;
  const result = await mergeDefaultBranch(worktree, branch, defaultBranch).catch(async (error: Error) => {
    await abortMerge(worktree);
    throw new WorkdirError(`Could not merge ${defaultBranch} into ${branch}: ${lastLine(error.message)}`);
  });
  if (result.state === "conflicted") {
    pending.set(executionId, { files: result.files, before });
    await log("git", { step: "merge", message: `git reported conflicts in ${result.files.length} file(s)`, files: result.files });
    return { cwd: dir, branch, instructions: withConflictedFiles(instructions, branch, defaultBranch, result.files) };
  }
  const after = await refSha(worktree, "HEAD");
  await log("git", {
    step: "merge",
    message: after === before ? `${branch} already contains ${defaultBranch}` : `Merged ${defaultBranch} into ${branch} without conflicts`,
  });
  await pushLogged(push, branch, log);
  return {
    cwd: dir,
    branch,
    skipAgent: {
      report:
        after === before
          ? `${branch} already contained ${defaultBranch}: nothing to merge. Pushed ${branch}; the agent was not needed.`
          : `git merged ${defaultBranch} into ${branch} without conflicts and the merge was pushed; the agent was not needed.`,
    },
  };
}

/**
 * After the agent: succeed only when the merge is complete without markers and pushed. Returns the
 * reason in words when it is not; the merge is then aborted (or the branch put back) so the
 * worktree is as before the fix.
 */
export async function concludeFix(
  { executionId, cloneDir, dir, branch, defaultBranch, log, push }: MergeContext,
  agentSucceeded: boolean,
): Promise<{ failed?: string }> {
  const worktree = { cloneDir, dir };
  const state = pending.get(executionId);
  pending.delete(executionId);
  if (!agentSucceeded) {
    await undo(worktree, state?.before, log, "The agent did not finish: the merge was aborted");
    return {};
  }
  if (await mergeInProgress(worktree)) {
    const candidates = [...new Set([...(state?.files ?? []), ...(await changedFiles(worktree))])];
    const left = await filesWithMarkers(dir, candidates);
    if (left.length > 0) {
      await undo(worktree, state?.before, log, "Conflict markers remain: the merge was aborted", left);
      return { failed: `Conflict markers remain in ${left.join(", ")}; the merge was aborted` };
    }
    const committed = await concludeMerge(worktree, candidates).then(
      () => null,
      (error: Error) => lastLine(error.message),
    );
    if (committed !== null) {
      await undo(worktree, state?.before, log, "The merge could not be committed: it was aborted");
      return { failed: `The merge could not be committed: ${committed}` };
    }
    await log("git", { step: "commit", message: `Committed the merge of ${defaultBranch} into ${branch}` });
  }
  if (!(await containsRef(worktree, `refs/remotes/origin/${defaultBranch}`))) {
    await undo(worktree, state?.before, log, "The merge was not completed");
    return { failed: `The merge was not completed: ${branch} does not contain ${defaultBranch}` };
  }
  // The agent may have committed the merge itself: markers must not ride along in its commit.
  const left = await filesWithMarkers(dir, state?.files ?? []);
  if (left.length > 0) {
    await undo(worktree, state?.before, log, "Conflict markers were committed: the branch was put back", left);
    return { failed: `Conflict markers remain in ${left.join(", ")}; the merge was not pushed` };
  }
  const pushed = await pushLogged(push, branch, log).then(
    () => null,
    (error: Error) => error.message,
  );
  return pushed === null ? {} : { failed: pushed };
}

async function pushLogged(push: () => Promise<void>, branch: string, log: WorkdirLog) {
  await push().catch((error: Error) => {
    throw new WorkdirError(error instanceof WorkdirError ? error.message : `git could not push ${branch}: ${lastLine(error.message)}`);
  });
  await log("git", { step: "push", message: `Pushed ${branch}` });
}

async function undo(worktree: Worktree, before: string | undefined, log: WorkdirLog, message: string, files?: string[]) {
  await abortMerge(worktree);
  if (before && (await refSha(worktree, "HEAD")) !== before) await resetTo(worktree, before);
  await log("git", { step: "abort", message, ...(files ? { files } : {}) });
}

function withConflictedFiles(instructions: string, branch: string, defaultBranch: string, files: string[]): string {
  return [
    instructions.trimEnd(),
    "",
    `The server has fetched ${branch} into your working directory and merged ${defaultBranch} into it; git reported conflicts in:`,
    ...files.map((file) => `- ${file}`),
    "",
    "Resolve every conflict in these files. Do not commit, push or abort the merge: the server commits the merge and pushes the branch once no marker remains.",
  ].join("\n");
}
