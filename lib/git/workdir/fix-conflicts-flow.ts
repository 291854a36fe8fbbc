import type { Db } from "@/lib/db/client";
import type { Execution } from "@/lib/generated/prisma/client";
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
import type { GitRemote } from "@/lib/git/remote/git-remote-for";
import { BranchRefused, pushTaskBranch } from "@/lib/git/remote/push-task-branch";
import { lastLine, WorkdirError, type PreparedWorkdir, type WorkdirLog } from "@/lib/git/workdir/workdir";
import { recordTaskDiff } from "@/lib/git/worktree/store-task-diff";

// Fix-conflicts that really merges. Before the agent (prepare-workdir): the task's branch is brought
// up to date with its remote copy and the default branch is merged into it. A clean merge is pushed
// at once and the agent is skipped; a conflicted one is left in progress for the agent, whose
// instructions list the conflicted files. After the agent (conclude-workdir): the merge is committed
// only when no conflict marker remains, then pushed; anything else aborts the merge and fails the run
// in words. The task's has_merge_conflict is cleared by finishExecution only for a succeeded fix,
// that is, only after the push.

interface MergeContext {
  db: Db;
  execution: Execution;
  cloneDir: string;
  dir: string;
  branch: string;
  defaultBranch: string;
  remote: GitRemote;
  log: WorkdirLog;
}

/** What the agent was left with, until its execution concludes (the same process runs both halves). */
const pending = new Map<string, { files: string[]; before: string }>();

export async function mergeForFix({
  db,
  execution,
  cloneDir,
  dir,
  branch,
  defaultBranch,
  remote,
  log,
}: MergeContext): Promise<PreparedWorkdir> {
  await log("git", { step: "merge", message: `Merging ${defaultBranch} into ${branch}` });
  const worktree = { cloneDir, dir };
  const before = (await refSha(worktree, "HEAD"))!;
  const result = await mergeDefaultBranch(worktree, branch, defaultBranch, remote.access).catch(async (error: Error) => {
    await abortMerge(worktree);
    throw new WorkdirError(`Could not merge ${defaultBranch} into ${branch}: ${lastLine(error.message)}`);
  });
  if (result.state === "conflicted") {
    pending.set(execution.id, { files: result.files, before });
    await log("git", { step: "merge", message: `git reported conflicts in ${result.files.length} file(s)`, files: result.files });
    return { cwd: dir, branch, instructions: withConflictedFiles(execution.instructions, branch, defaultBranch, result.files) };
  }
  const after = await refSha(worktree, "HEAD");
  await log("git", {
    step: "merge",
    message: after === before ? `${branch} already contains ${defaultBranch}` : `Merged ${defaultBranch} into ${branch} without conflicts`,
  });
  await push(db, execution, branch, remote, log);
  // The agent is skipped, so no conclusion follows: the merged branch's diff is stored here.
  await recordTaskDiff(db, execution, worktree, defaultBranch, log);
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
  { db, execution, cloneDir, dir, branch, defaultBranch, remote, log }: MergeContext,
  agentSucceeded: boolean,
): Promise<{ failed?: string }> {
  const worktree = { cloneDir, dir };
  const state = pending.get(execution.id);
  pending.delete(execution.id);
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
  const pushed = await push(db, execution, branch, remote, log).then(
    () => null,
    (error: Error) => error.message,
  );
  return pushed === null ? {} : { failed: pushed };
}

/** The worktree's commits are the clone's: its branch is pushed from there, through the one door. */
async function push(db: Db, execution: Execution, branch: string, remote: GitRemote, log: WorkdirLog) {
  await pushTaskBranch(db, { workspaceId: execution.workspaceId, taskId: execution.taskId, branch }, remote).catch((error: Error) => {
    throw new WorkdirError(error instanceof BranchRefused ? error.message : `git could not push ${branch}: ${lastLine(error.message)}`);
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
