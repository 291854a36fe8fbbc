import { queryOptions, useMutation, useQueryClient, type MutateOptions, type QueryClient } from "@tanstack/react-query";
import { api, ApiClientError } from "@/lib/client/api";
import {
  findTask,
  flatItems,
  patchTask,
  placeTask,
  positionBetween,
  restoreColumns,
  snapshotColumns,
  type ColumnData,
} from "@/lib/client/board-cache";
import { dropPosition, type Drop, type DropInput } from "@/lib/client/drop-position";
import { boardKeys, taskKeys } from "@/lib/client/query-keys";
import type { Card, ColumnSort, CreateTaskInput, Task, UpdateTaskInput } from "@/lib/client/types";
import { readTaskRecord } from "@/lib/client/reads-after-events";
import type { ColumnKey } from "@/lib/tasks/columns";

// One task: its read, and the writes the board and the task dialog make. Each write changes the
// board's column caches (lib/client/board-cache.ts) so the card shows the change at once.

const tasksUrl = (workspaceId: string) => `/api/workspaces/${workspaceId}/tasks`;
const taskUrl = (workspaceId: string, taskId: string) => `${tasksUrl(workspaceId)}/${taskId}`;

export function taskQuery(workspaceId: string, taskId: string) {
  return queryOptions({
    queryKey: taskKeys.detail(workspaceId, taskId),
    queryFn: () => readTaskRecord(workspaceId, taskId),
    staleTime: 0,
  });
}

/** Creates a task and puts it where the server says; `shown` is false when it landed past the loaded cards. */
export function useCreateTask(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: CreateTaskInput) => {
      const task = await api<Task>(tasksUrl(workspaceId), { method: "POST", json: input });
      placeFromServer(client, workspaceId, task);
      return { task, shown: Boolean(findTask(client, workspaceId, task.id)) };
    },
  });
}

/** Edits a task; the card shows the change until the server answers, and goes back if it refuses. */
export function useUpdateTask(workspaceId: string, taskId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (changes: UpdateTaskInput) => api<Task>(taskUrl(workspaceId, taskId), { method: "PATCH", json: changes }),
    onMutate: async (changes) => {
      await client.cancelQueries({ queryKey: boardKeys.columns(workspaceId) });
      const snapshot = snapshotColumns(client, workspaceId);
      patchTask(client, workspaceId, taskId, (old) => ({ ...old, ...(changes as Partial<Card>) }));
      return { snapshot };
    },
    onError: (_error, _changes, context) => {
      if (context) restoreColumns(client, context.snapshot);
    },
    onSuccess: (saved) => {
      client.setQueryData(taskKeys.detail(workspaceId, taskId), saved);
      placeFromServer(client, workspaceId, saved);
    },
  });
}

export interface MoveInput {
  task: Card;
  column: ColumnKey;
  after_id: string | null;
  before_id: string | null;
  /** The cache it was dropped into and where (display index), so the card shows there at once. */
  at?: { key: readonly unknown[]; index: number };
}

/** Moves a task between two neighbours; optimistic, rolled back (and the board refetched on 409) when refused. */
export function useMoveTask(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ task, column, after_id, before_id }: MoveInput) =>
      api<Task>(`${taskUrl(workspaceId, task.id)}/move`, {
        method: "POST",
        json: { column, ...(after_id ? { after_id } : {}), ...(before_id ? { before_id } : {}) },
      }),
    onMutate: async ({ task, column, after_id, before_id, at }) => {
      await client.cancelQueries({ queryKey: boardKeys.all(workspaceId) });
      const snapshot = snapshotColumns(client, workspaceId);
      const lower = after_id ? findTask(client, workspaceId, after_id) : undefined;
      const higher = before_id ? findTask(client, workspaceId, before_id) : undefined;
      placeTask(client, workspaceId, { ...task, status: column, position: positionBetween(lower, higher) }, { at });
      return { snapshot };
    },
    onError: (error, _input, context) => {
      if (context) restoreColumns(client, context.snapshot);
      if (isStaleBoard(error)) client.invalidateQueries({ queryKey: boardKeys.columns(workspaceId) });
    },
    onSuccess: (saved) => {
      // Keep the card where it was dropped; only take the server's fields (its position).
      patchTask(client, workspaceId, saved.id, (old) => ({ ...old, ...saved }));
    },
  });
}

/**
 * Turns a drag-and-drop into a move: reads the target column's loaded cards from the cache, works out
 * the neighbours (dropPosition) and starts the move. Returns what the drop meant, for the caller to
 * explain a refusal.
 */
export function useDropTask(workspaceId: string) {
  const client = useQueryClient();
  const move = useMoveTask(workspaceId);
  return (
    task: Card,
    drop: Omit<DropInput, "taskId" | "sort" | "loadedIds" | "hasMore">,
    sort: ColumnSort,
    filter: string,
    options?: MutateOptions<Task, Error, MoveInput, unknown>,
  ): Drop => {
    const key = boardKeys.columnSorted(workspaceId, drop.target.column, sort, filter);
    const data = client.getQueryData<ColumnData>(key);
    const loadedIds = flatItems(data).map((item) => item.id);
    const result = dropPosition({ ...drop, taskId: task.id, sort, loadedIds, hasMore: Boolean(data?.pages.at(-1)?.has_more) });
    if (result.type === "move") {
      const { column, after_id, before_id, index } = result;
      move.mutate({ task, column, after_id, before_id, ...(index !== null ? { at: { key, index } } : {}) }, options);
    }
    return result;
  };
}

/** 409 on a write: this page's view of the board was out of date. */
export function isStaleBoard(error: unknown): boolean {
  return error instanceof ApiClientError && error.status === 409;
}

/** The task where the server says it is; a filtered column it may now belong to is fetched again. */
export function placeFromServer(client: QueryClient, workspaceId: string, task: Task) {
  for (const key of placeTask(client, workspaceId, task)) client.invalidateQueries({ queryKey: key, exact: true });
}
