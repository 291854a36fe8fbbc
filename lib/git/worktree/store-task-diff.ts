import { diffMaxBytes, diffMaxFileBytes } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import type { Execution } from "@/lib/generated/prisma/client";
import { computeBranchDiff, type BranchDiff } from "@/lib/git/branch-diff";
import { currentBranch, type Worktree } from "@/lib/git/task-worktree";
import { lastLine, type WorkdirLog } from "@/lib/git/workdir/workdir";

// After each run of a task with a repository, the diff of its branch against its base is stored, so
// the diff route reads it from the database on any instance (lib/git/worktree/task-diff.ts); the run
// computes it where the clone is (lib/git/branch-diff.ts). One row per task: the latest run's.

export async function storeTaskDiff(db: Db, target: { taskId: string; workspaceId: string; executionId: string | null }, diff: BranchDiff) {
  const data = {
    workspaceId: target.workspaceId,
    executionId: target.executionId,
    branch: diff.branch,
    base: diff.base,
    baseSha: diff.baseSha,
    commitSha: diff.commitSha,
    filesChanged: diff.filesChanged,
    linesAdded: diff.linesAdded,
    linesRemoved: diff.linesRemoved,
    truncated: diff.truncated,
    files: diff.files,
    patch: diff.patch,
    patchBytes: Buffer.byteLength(diff.patch, "utf8"),
    computedAt: new Date(),
  };
  // The task may have been deleted while its run concluded: nothing to store then.
  const task = await db.task.findUnique({ where: { id: target.taskId }, select: { id: true } });
  if (!task) return;
  await db.taskDiff.upsert({ where: { taskId: target.taskId }, create: { taskId: target.taskId, ...data }, update: data });
}

/**
 * After a run (its conclusion, or a conflict fix that merged cleanly without its agent): the diff of
 * the branch the worktree is on, computed and stored. A failure is logged, never the run's: the
 * run's outcome (and its reason) stays what its steps decided.
 */
export async function recordTaskDiff(db: Db, execution: Execution, worktree: Worktree, defaultBranch: string, log: WorkdirLog) {
  try {
    const branch = await currentBranch(worktree);
    if (branch === "HEAD") return;
    const limits = { maxBytes: diffMaxBytes(), maxFileBytes: diffMaxFileBytes() };
    const diff = await computeBranchDiff(worktree.cloneDir, branch, `refs/heads/${branch}`, defaultBranch, limits);
    await storeTaskDiff(db, { taskId: execution.taskId, workspaceId: execution.workspaceId, executionId: execution.id }, diff);
    if (diff.truncated)
      await log("git", { step: "diff", message: "The branch's diff is too large to keep whole: it was stored truncated" });
  } catch (error) {
    await log("git", { step: "diff", message: `The branch's diff was not recorded: ${lastLine((error as Error).message)}` });
  }
}
