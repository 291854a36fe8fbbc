import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import { conflict, notFound } from "@/lib/platform/errors";
import { STORED_CONTEXT } from "@/lib/git/branch-diff";
import { parseUnifiedDiff } from "@/lib/git/parse-diff";
import { rehunk } from "@/lib/git/rehunk";
import { diffFile } from "@/lib/runner-protocol";
import type { taskDiffResponse } from "@/lib/worktrees/schemas";

// GET …/tasks/{task_id}/diff: the task branch's changes against the point where it left the default
// branch, as files → hunks → lines, as the task's last run stored them (lib/git/worktree/store-task-diff.ts).
// Served from the database: no git, no disk, so any instance answers and a task whose worktree (or
// whole clone) is gone keeps its diff. The stored patch has 50 lines of context; a smaller
// `context` is cut from it (lib/git/rehunk.ts). Its bounds, and `truncated`: lib/git/branch-diff.ts.

const storedFiles = diffFile.array();

export async function getTaskDiff(
  db: Db,
  workspaceId: string,
  taskId: string,
  context: number,
): Promise<z.output<typeof taskDiffResponse>> {
  const task = await db.task.findFirst({ where: { id: taskId, workspaceId }, select: { branch: true, diff: true } });
  if (!task) throw notFound("Task");
  const repository = await db.workspaceRepository.findUnique({ where: { workspaceId }, select: { workspaceId: true } });
  if (!repository) throw conflict("The workspace has no repository, so the task has no diff");
  if (!task.branch) throw conflict("The task has no branch yet: its first run creates one");
  const stored = task.diff;
  // A branch set by hand after the last run has no diff until a run works on it.
  if (!stored || stored.branch !== task.branch)
    throw conflict(`No run has recorded a diff of the branch ${task.branch} yet: start a run on the task first`);

  const byPath = new Map(parseUnifiedDiff(stored.patch).map((file) => [file.path, file]));
  return {
    branch: stored.branch,
    base: stored.base,
    commit_sha: stored.commitSha,
    files_changed: stored.filesChanged,
    lines_added: stored.linesAdded,
    lines_removed: stored.linesRemoved,
    files: storedFiles.parse(stored.files).map((file) => {
      const found = byPath.get(file.path);
      const hunks = file.summary || !found ? [] : rehunk(found.hunks, context, STORED_CONTEXT);
      return { ...file, status: found?.status ?? file.status, hunks };
    }),
    truncated: stored.truncated,
  };
}
