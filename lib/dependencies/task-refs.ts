import type { Tx } from "@/lib/db/client";
import { HttpError } from "@/lib/platform/errors";
import type { DependencyTask } from "@/lib/dependencies/schemas";
import type { ColumnKey } from "@/lib/tasks/columns";

// How tasks are named in dependency messages and events: `#12 “Title”`.

export type TaskRef = Pick<DependencyTask, "id" | "number" | "title">;

export function describeTask(task: TaskRef): string {
  return `#${task.number} “${task.title}”`;
}

/** The task's blockers that are not done yet (oldest dependency first); one statement. */
export async function openBlockersOf(tx: Pick<Tx, "$queryRaw">, workspaceId: string, taskId: string): Promise<DependencyTask[]> {
  return tx.$queryRaw<DependencyTask[]>`
    SELECT b.id, b.number, b.title, b.status
    FROM task_dependencies d JOIN tasks b ON b.id = d.blocker_id
    WHERE d.task_id = ${taskId} AND d.workspace_id = ${workspaceId} AND b.status <> ${DONE}
    ORDER BY d.created_at, d.blocker_id`;
}

/** A 409 for work refused because the task waits for open blockers; the scheduler records its message. */
export class BlockedError extends HttpError {
  constructor(
    task: TaskRef,
    readonly blockers: DependencyTask[],
  ) {
    super(
      409,
      `${describeTask(task)} is blocked by ${blockers.length === 1 ? "an open task" : "open tasks"}: ${blockers.map((b) => `${describeTask(b)} (${b.status})`).join(", ")}`,
    );
  }
}

/** Refuses agent work on a task with open blockers unless forced (409 naming them). */
export async function refuseIfBlocked(tx: Pick<Tx, "$queryRaw">, workspaceId: string, task: TaskRef, force = false) {
  if (force) return;
  const open = await openBlockersOf(tx, workspaceId, task.id);
  if (open.length > 0) throw new BlockedError(task, open);
}

const DONE: ColumnKey = "done";
