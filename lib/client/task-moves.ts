"use client";

import { useQueryClient } from "@tanstack/react-query";
import { flatItems, type ColumnData } from "@/lib/client/board-cache";
import { boardKeys } from "@/lib/client/query-keys";
import { useMoveTask } from "@/lib/client/tasks";
import { DEFAULT_SORT, type Card } from "@/lib/client/types";
import type { ColumnKey } from "@/lib/tasks/columns";

// "Move to …" from a card's menu: to the top of another column, and back to exactly where it was
// (between the same neighbours) when the person presses Undo.

export function useMoveToColumn(workspaceId: string) {
  const client = useQueryClient();
  const move = useMoveTask(workspaceId);
  const ordered = (column: ColumnKey) =>
    flatItems(client.getQueryData<ColumnData>(boardKeys.columnSorted(workspaceId, column, DEFAULT_SORT)));
  return (task: Card, column: ColumnKey, onError: (error: Error) => void) => {
    const from = ordered(task.status as ColumnKey);
    const index = from.findIndex((card) => card.id === task.id);
    const back = {
      column: task.status as ColumnKey,
      after_id: index > 0 ? from[index - 1].id : null,
      before_id: index >= 0 && index + 1 < from.length ? from[index + 1].id : null,
    };
    const top = ordered(column)[0];
    move.mutate({ task, column, after_id: null, before_id: top?.id ?? null }, { onError });
    /** Undo: the task back between its old neighbours. */
    return () => move.mutate({ task: { ...task, status: column }, ...back }, { onError });
  };
}
