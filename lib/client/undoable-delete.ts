"use client";

import { useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/client/api";
import { removeTask, restoreColumns, snapshotColumns } from "@/lib/client/board-cache";
import { boardKeys } from "@/lib/client/query-keys";
import type { Card } from "@/lib/client/types";

// Deleting a task with 10 s to undo it (issue #37): the card leaves the board at once, and the
// DELETE is sent only when the 10 s are over, so Undo gives the task back whole, with its runs,
// questions and history, because nothing was deleted yet. Leaving the page sends what is pending
// (a keepalive request), so a delete is never lost either. Others see the task until it is sent.

export const UNDO_MS = 10_000;

const pending = new Map<string, () => void>();
if (typeof window !== "undefined") window.addEventListener("pagehide", () => pending.forEach((flush) => flush()));

export function useUndoableDelete(workspaceId: string) {
  const client = useQueryClient();
  return (task: Pick<Card, "id">, onFailed: (error: Error) => void) => {
    const url = `/api/workspaces/${workspaceId}/tasks/${task.id}`;
    const snapshot = snapshotColumns(client, workspaceId);
    removeTask(client, workspaceId, task.id);
    let settled = false;
    const settle = () => {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      pending.delete(task.id);
      return true;
    };
    const timer = setTimeout(() => {
      if (!settle()) return;
      api<void>(url, { method: "DELETE" }).catch((error: Error) => {
        restoreColumns(client, snapshot);
        onFailed(error);
      });
    }, UNDO_MS);
    pending.set(task.id, () => {
      if (settle()) void fetch(url, { method: "DELETE", keepalive: true, credentials: "same-origin" });
    });
    /** Undo: true when the task was given back (false once the DELETE went out). */
    return () => {
      if (!settle()) return false;
      restoreColumns(client, snapshot);
      // What changed on the board meanwhile, read again over the snapshot.
      client.invalidateQueries({ queryKey: boardKeys.columns(workspaceId) });
      return true;
    };
  };
}
