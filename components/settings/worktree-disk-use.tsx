import type { z } from "zod";
import type { repositoryResponse } from "@/lib/repositories/schemas";

type WorktreeFigures = Pick<z.output<typeof repositoryResponse>, "worktree_count" | "worktree_disk_bytes" | "worktree_retention_days">;

/** One line of the repository section: how much disk the workspace's task worktrees take, and when they go. */
export function WorktreeDiskUse({ repository }: { repository: WorktreeFigures }) {
  const { worktree_count: count, worktree_disk_bytes: bytes, worktree_retention_days: days } = repository;
  return (
    <p className="w-full text-sm text-slate-600 dark:text-slate-400" data-testid="worktree-disk-use">
      {count === 0
        ? "No task worktrees on the server's disk"
        : `${count} task ${count === 1 ? "worktree uses" : "worktrees use"} ${formatBytes(bytes)}`}
      {"; "}a task&apos;s worktree is removed{" "}
      {days === 0 ? "as soon as it is done" : `${days} ${days === 1 ? "day" : "days"} after it is done`} (its branch stays).
    </p>
  );
}

function formatBytes(bytes: number): string {
  const units = ["bytes", "KB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} bytes` : `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}
