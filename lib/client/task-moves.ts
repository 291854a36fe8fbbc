"use client";

import { useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/client/api";
import { flatItems, placeTask, type ColumnData } from "@/lib/client/board-cache";
import { boardKeys } from "@/lib/client/query-keys";
import { isStaleBoard, placeFromServer, useMoveTask } from "@/lib/client/tasks";
import { DEFAULT_SORT, type Card, type Task } from "@/lib/client/types";
import type { ColumnKey } from "@/lib/tasks/columns";

// "Move to …" from a card's menu (to the top of another column) and the Undo of a move, one card's
// or a selection's.

/**
 * Undo of a move: the task back in its old column at its old `position` exactly (PATCH with
 * `position`), so it needs none of its old neighbours loaded, and several can go back in any order.
 * If another task took that spot meanwhile (409), it goes to the end of its old column.
 */
export function useMoveBack(workspaceId: string) {
  const client = useQueryClient();
  return async (before: Card): Promise<void> => {
    const url = `/api/workspaces/${workspaceId}/tasks/${before.id}`;
    placeTask(client, workspaceId, before);
    try {
      const saved = await api<Task>(url, { method: "PATCH", json: { status: before.status, position: before.position } }).catch((error) => {
        if (!isStaleBoard(error)) throw error;
        return api<Task>(`${url}/move`, { method: "POST", json: { column: before.status } });
      });
      placeFromServer(client, workspaceId, saved);
    } catch (error) {
      // Where the card really is now is the server's to say.
      client.invalidateQueries({ queryKey: boardKeys.columns(workspaceId) });
      throw error;
    }
  };
}

export function useMoveToColumn(workspaceId: string) {
  const client = useQueryClient();
  const move = useMoveTask(workspaceId);
  const moveBack = useMoveBack(workspaceId);
  return (task: Card, column: ColumnKey, onError: (error: Error) => void) => {
    const top = flatItems(client.getQueryData<ColumnData>(boardKeys.columnSorted(workspaceId, column, DEFAULT_SORT)))[0];
    move.mutate({ task, column, after_id: null, before_id: top?.id ?? null }, { onError });
    return () => void moveBack(task).catch(onError);
  };
}
