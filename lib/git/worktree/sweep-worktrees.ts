import fs from "node:fs";
import type { Db } from "@/lib/db/client";
import { dataDir } from "@/lib/config";
import { removeTaskRepository, taskGitDir } from "@/lib/git/task-repository";
import { repositoryCloneDir } from "@/lib/repositories/repository";
import { agentSessionsDir, agentWorkdir } from "@/lib/platform/runner-config";
import { readEmbeddedRegistration } from "@/lib/platform/embedded-registration";
import { pruneWorktrees } from "@/lib/git/task-worktree";

// Worktrees must not eat the disk: the worktree of a task that is deleted, or done for longer than
// its repository's worktree_retention_days, is removed (its branch stays, in the clone and on the
// remote once pushed; a later run makes the worktree again from it). The scheduler calls this on
// every tick; each pass removes at most SWEEP_BATCH worktrees, so a pass stays short.
// A record's path is what a runner reported, and the server never trusts it: it deletes only what
// its own runner made on its own disk, at the path it derives itself (agentWorkdir), never through
// a symlink. A remote runner's record is forgotten and its files are left to it.

const SWEEP_BATCH = 10;

let sweeping = false;

/** Removes up to SWEEP_BATCH worktrees due for removal; returns how many (0 while a pass is still going). */
export async function sweepWorktrees(db: Db): Promise<number> {
  if (sweeping) return 0;
  sweeping = true;
  try {
    return await sweepOnce(db);
  } finally {
    sweeping = false;
  }
}

async function sweepOnce(db: Db): Promise<number> {
  const due = await db.$queryRaw<Row[]>`
    SELECT w.task_id, w.workspace_id, w.path, w.runner_id FROM task_worktrees w
    LEFT JOIN tasks t ON t.id = w.task_id
    LEFT JOIN workspace_repositories r ON r.workspace_id = w.workspace_id
    WHERE t.id IS NULL
       OR (t.status = 'done' AND t.done_at IS NOT NULL
           AND t.done_at <= now() - make_interval(days => COALESCE(r.worktree_retention_days, 0)))
    ORDER BY w.used_at LIMIT ${SWEEP_BATCH}::int`;
  const embedded = readEmbeddedRegistration()?.id ?? null;
  for (const worktree of due) await forget(db, worktree, embedded);
  return due.length;
}

type Row = { task_id: string; workspace_id: string; path: string; runner_id: string | null };

/** Every worktree of the workspace (its repository was replaced or disconnected). */
export async function removeWorkspaceWorktrees(db: Db, workspaceId: string): Promise<void> {
  const rows = await db.taskWorktree.findMany({ where: { workspaceId } });
  const embedded = readEmbeddedRegistration()?.id ?? null;
  for (const row of rows) {
    await forget(db, { task_id: row.taskId, workspace_id: row.workspaceId, path: row.path, runner_id: row.runnerId }, embedded);
  }
}

async function forget(db: Db, worktree: Row, embeddedRunnerId: string | null) {
  const dir = ownDirectory(worktree, embeddedRunnerId);
  if (dir) {
    // The embedded runner's task repository (its RUNNER_DIR is DATA_DIR: the git directory is the
    // server's to derive too), then any worktree of the old layout the clone still lists. A
    // directory (checked just now): links inside it are removed themselves, never followed.
    removeTaskRepository({ gitDir: taskGitDir(dataDir(), worktree.workspace_id, worktree.task_id), dir });
    const cloneDir = repositoryCloneDir(worktree.workspace_id);
    if (fs.existsSync(cloneDir)) await pruneWorktrees(cloneDir).catch(() => {});
  }
  // The agents' session files of the task go with its worktree (a later run starts a new session).
  fs.rmSync(agentSessionsDir(worktree.workspace_id, worktree.task_id), { recursive: true, force: true });
  await db.taskWorktree.deleteMany({ where: { taskId: worktree.task_id } });
}

/**
 * The directory to delete for a record: the path the server derives for the task, when the record
 * is its embedded runner's (or predates runner ids) and that path is a directory, not a link.
 * null: nothing of this record is the server's to delete.
 */
export function ownDirectory(worktree: Row, embeddedRunnerId: string | null): string | null {
  if (worktree.runner_id !== null && worktree.runner_id !== embeddedRunnerId) return null;
  const derived = agentWorkdir(worktree.workspace_id, worktree.task_id);
  if (worktree.path !== derived) return null;
  const stat = fs.lstatSync(derived, { throwIfNoEntry: false });
  return stat?.isDirectory() ? derived : null;
}
