"use client";

import { useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/client/api";
import type { Assignee } from "@/lib/client/assignees";
import { findTask, placeTask } from "@/lib/client/board-cache";
import { useMoveBack } from "@/lib/client/task-moves";
import { placeFromServer } from "@/lib/client/tasks";
import { useUndoableDelete } from "@/lib/client/undoable-delete";
import type { Card, Task } from "@/lib/client/types";
import type { ColumnKey } from "@/lib/tasks/columns";

// Several selected cards moved, assigned or deleted together (issue #37), with one Undo for the
// lot. There is no bulk endpoint: each task is its own request (the interface's move, PATCH and
// DELETE, so events, reactions and permissions are exactly those of one change), at most
// CONCURRENCY at a time. A delete is the undoable one of lib/client/undoable-delete.ts: nothing is
// sent for 10 s, so Undo gives back the tasks with their runs and questions.

const CONCURRENCY = 4;

/** Runs `work` on every item, at most `limit` at once; the number that failed. */
export async function eachBounded<T>(items: readonly T[], limit: number, work: (item: T) => Promise<unknown>): Promise<number> {
  let next = 0;
  let failed = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      await work(item).catch(() => failed++);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return failed;
}

export interface BulkResult {
  /** How many of the tasks the server refused. */
  failed: number;
  undo: () => Promise<number>;
}

export function useBulkChanges(workspaceId: string) {
  const client = useQueryClient();
  const removeOne = useUndoableDelete(workspaceId);
  const moveBack = useMoveBack(workspaceId);
  const url = (taskId: string) => `/api/workspaces/${workspaceId}/tasks/${taskId}`;
  const current = (task: Card) => findTask(client, workspaceId, task.id) ?? task;
  const send = async (taskId: string, path: string, method: string, json: unknown) => {
    const saved = await api<Task>(`${url(taskId)}${path}`, { method, json });
    placeFromServer(client, workspaceId, saved);
  };

  /** To the end of `column`; Undo puts each back at its old place (useMoveBack). */
  const move = async (tasks: Card[], column: ColumnKey): Promise<BulkResult> => {
    const before = tasks.map(current);
    for (const task of before) placeTask(client, workspaceId, { ...task, status: column });
    const failed = await eachBounded(before, CONCURRENCY, (task) => send(task.id, "/move", "POST", { column }));
    return { failed, undo: () => eachBounded(before, CONCURRENCY, moveBack) };
  };

  /** The same assignees on every task; Undo gives each its own list back. */
  const assign = async (tasks: Card[], assignees: Assignee[]): Promise<BulkResult> => {
    const before = tasks.map(current);
    const failed = await eachBounded(before, CONCURRENCY, (task) => send(task.id, "", "PATCH", { assignees }));
    const undo = () => eachBounded(before, CONCURRENCY, (task) => send(task.id, "", "PATCH", { assignees: task.assignees }));
    return { failed, undo };
  };

  /** Off the board at once, deleted after 10 s unless undone; `onFailed` when a delete is refused then. */
  const remove = (tasks: Card[], onFailed: (error: Error) => void): BulkResult => {
    const undos = tasks.map((task) => removeOne(task, onFailed));
    // Each delete's snapshot holds the cards deleted before it gone: undone last to first, the first one's wins.
    const undo = async () => undos.reverse().filter((undoOne) => !undoOne()).length;
    return { failed: 0, undo };
  };

  return { move, assign, remove };
}
