import type { z } from "zod";
import { conflict, HttpError, notFound, ValidationError } from "@/lib/platform/errors";
import { recordTaskEvent } from "@/lib/events/record-events";
import type { Db, Tx } from "@/lib/db/client";
import { between, doneAtFor, inColumnTransaction, lockColumn, renumberColumn } from "@/lib/tasks/positions";
import type { moveTaskBody, TaskResponse } from "@/lib/tasks/schemas";
import type { ColumnKey } from "@/lib/tasks/columns";
import { markAgentStartsOnEntry } from "@/lib/tasks/assignees";

type MoveBody = z.output<typeof moveTaskBody>;

/**
 * Drag and drop: puts the task between its new neighbours with one row write. `after_id` is the
 * task that ends up directly above it, `before_id` the one directly below; 409 when the anchors are
 * not (or no longer) where the client saw them.
 */
export async function moveTask(db: Db, workspaceId: string, taskId: string, body: MoveBody): Promise<TaskResponse> {
  for (const key of ["after_id", "before_id"] as const) {
    if (body[key] === taskId) {
      throw new ValidationError([
        { type: "value_error", loc: ["body", key], msg: "Value error, a task cannot be placed next to itself", input: taskId },
      ]);
    }
  }
  const moved = await relocate(db, workspaceId, taskId, body);
  return JSON.parse(moved!.task) as TaskResponse;
}

/**
 * The board's own moves (lib/reactions/board-automation.ts): the same move to the end of `column`,
 * made only while the task is in one of `onlyFrom`, checked under the move's locks so a person's
 * move in between wins. False when the task was elsewhere (or is gone).
 */
export async function moveTaskFrom(db: Db, workspaceId: string, taskId: string, column: ColumnKey, onlyFrom: readonly ColumnKey[]) {
  const moved = await relocate(db, workspaceId, taskId, { column }, onlyFrom).catch((error: unknown) => {
    if (error instanceof HttpError && error.status === 404) return null;
    throw error;
  });
  return moved !== null;
}

/**
 * One row write under the column's lock, and its task.moved event; returns the task as the move
 * left it (its JSON text, read in the transaction: the event's data), or null when the task was not in `onlyFrom`.
 */
async function relocate(db: Db, workspaceId: string, taskId: string, body: MoveBody, onlyFrom?: readonly string[]) {
  return inColumnTransaction(db, async (tx) => {
    await lockColumn(tx, workspaceId, body.column);
    const locked = await tx.$queryRaw<{ status: string; done_at: Date | null }[]>`
      SELECT status, done_at FROM tasks WHERE id = ${taskId} AND workspace_id = ${workspaceId} FOR UPDATE`;
    if (locked.length === 0) throw notFound("Task");
    if (onlyFrom && !onlyFrom.includes(locked[0].status)) return null;
    let position = await placement(tx, workspaceId, taskId, body);
    if (position === null) {
      await renumberColumn(tx, workspaceId, body.column);
      position = await placement(tx, workspaceId, taskId, body);
      if (position === null) throw new Error("no room between the anchors even after renumbering");
    }
    await tx.task.update({
      where: { id: taskId },
      data: { status: body.column, position, doneAt: doneAtFor(locked[0].status, body.column, locked[0].done_at) },
    });
    await markAgentStartsOnEntry(tx, taskId, locked[0].status, body.column);
    return { task: await recordTaskEvent(tx, workspaceId, "task.moved", taskId) };
  });
}

async function placement(tx: Tx, workspaceId: string, taskId: string, body: MoveBody): Promise<number | null> {
  const column = body.column;
  const others = { workspaceId, status: column, id: { not: taskId } };
  const anchorIds = [body.after_id, body.before_id].filter((id): id is string => typeof id === "string");
  const anchors = anchorIds.length
    ? await tx.task.findMany({ where: { ...others, id: { in: anchorIds } }, select: { id: true, position: true } })
    : [];
  const above = body.after_id ? anchors.find((a) => a.id === body.after_id) : undefined;
  const below = body.before_id ? anchors.find((a) => a.id === body.before_id) : undefined;
  if (body.after_id && !above) throw conflict("after_id is not a task in that column");
  if (body.before_id && !below) throw conflict("before_id is not a task in that column");

  if (above && below) {
    const inBetween =
      above.position < below.position
        ? await tx.task.count({ where: { ...others, position: { gt: above.position, lt: below.position } } })
        : 1;
    if (inBetween > 0) throw conflict("after_id and before_id are no longer adjacent in that column");
    return between(above.position, below.position);
  }
  if (above) {
    const next = await tx.task.findFirst({
      where: { ...others, position: { gt: above.position } },
      orderBy: { position: "asc" },
      select: { position: true },
    });
    return between(above.position, next?.position);
  }
  if (below) {
    const previous = await tx.task.findFirst({
      where: { ...others, position: { lt: below.position } },
      orderBy: { position: "desc" },
      select: { position: true },
    });
    return between(previous?.position, below.position);
  }
  const last = await tx.task.findFirst({ where: others, orderBy: { position: "desc" }, select: { position: true } });
  return between(last?.position, undefined);
}
