import fs from "node:fs";
import path from "node:path";
import type { Db } from "@/lib/db/client";

// Which task worktrees runners reported and how big they are (task_worktrees), so the repository
// API can report disk use with one indexed query and the sweep finds what to remove without walking
// the disk. A record's path is its runner's word: only the sweep decides what it deletes.

/** `runnerId`: the runner that reported it (its path is that runner's word, never a path the server trusts). */
export async function recordWorktree(
  db: Db,
  worktree: { taskId: string; workspaceId: string; path: string; branch: string; runnerId: string | null },
) {
  const now = new Date();
  await db.taskWorktree.upsert({
    where: { taskId: worktree.taskId },
    create: { ...worktree, createdAt: now, usedAt: now },
    update: { path: worktree.path, branch: worktree.branch, runnerId: worktree.runnerId, usedAt: now },
  });
}

/** Measures the worktree after a run (its files only: the objects live in the shared clone). */
export async function measureWorktree(db: Db, taskId: string, dir: string) {
  const bytes = await directoryBytes(dir);
  await db.taskWorktree.updateMany({ where: { taskId }, data: { bytes: BigInt(bytes) } });
}

/** The workspace's worktrees: how many and their total size in bytes. */
export async function worktreeDiskUse(db: Db, workspaceId: string): Promise<{ count: number; bytes: number }> {
  const sum = await db.taskWorktree.aggregate({ where: { workspaceId }, _count: { _all: true }, _sum: { bytes: true } });
  return { count: sum._count._all, bytes: Number(sum._sum.bytes ?? 0) };
}

/** Bytes of the regular files under `dir`, symlinks not followed; a missing directory is 0. */
export async function directoryBytes(dir: string): Promise<number> {
  let total = 0;
  const pending = [dir];
  while (pending.length > 0) {
    const current = pending.pop()!;
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(current, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) pending.push(full);
      else if (entry.isFile())
        total += await fs.promises.lstat(full).then(
          (stat) => stat.size,
          () => 0,
        );
    }
  }
  return total;
}
