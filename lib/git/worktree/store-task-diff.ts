import type { Db } from "@/lib/db/client";
import type { BranchDiff } from "@/lib/git/branch-diff";

// After each run of a task with a repository, the diff of its branch against its base is stored, so
// the diff route reads it from the database on any instance (lib/git/worktree/task-diff.ts); the
// runner computes it where its clone is (lib/git/branch-diff.ts) and uploads it (PUT
// /api/runner/executions/{id}/diff). One row per task: the latest run's.

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
