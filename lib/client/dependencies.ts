import { infiniteQueryOptions, keepPreviousData, queryOptions, useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { api } from "@/lib/client/api";
import { patchTask } from "@/lib/client/board-cache";
import { taskKeys } from "@/lib/client/query-keys";
import type { ActivityPage, Dependencies, Task, TaskSearchPage } from "@/lib/client/types";

// A task's blockers and dependants, the title search that finds a new blocker, and the task's
// activity (its history from the event log), for the task dialog.

const taskUrl = (workspaceId: string, taskId: string) => `/api/workspaces/${workspaceId}/tasks/${taskId}`;

export function dependenciesQuery(workspaceId: string, taskId: string) {
  return queryOptions({
    queryKey: taskKeys.dependencies(workspaceId, taskId),
    queryFn: () => api<Dependencies>(`${taskUrl(workspaceId, taskId)}/dependencies`),
  });
}

/** Tasks whose title contains `text` (at most 10), for the blocker picker; nothing is asked for an empty text. */
export function taskSearchQuery(workspaceId: string, text: string) {
  return queryOptions({
    queryKey: taskKeys.search(workspaceId, text),
    queryFn: () => api<TaskSearchPage>(`/api/workspaces/${workspaceId}/tasks?limit=10&search=${encodeURIComponent(text)}`),
    enabled: text.trim().length > 0,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}

/** Adds (`blocked: true`) or removes a blocker of the task; both tasks' records and lists are refreshed. */
export function useSetBlocker(workspaceId: string, taskId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ blockerId, blocked }: { blockerId: string; blocked: boolean }) =>
      api<Task>(`${taskUrl(workspaceId, taskId)}/dependencies/${blockerId}`, { method: blocked ? "POST" : "DELETE" }),
    onSuccess: (task, { blockerId }) => {
      client.setQueryData(taskKeys.detail(workspaceId, taskId), task);
      patchTask(client, workspaceId, taskId, (old) => ({ ...old, ...task }));
      refreshDependencies(client, workspaceId, [taskId, blockerId]);
    },
  });
}

export function refreshDependencies(client: QueryClient, workspaceId: string, taskIds: string[]) {
  for (const id of taskIds) {
    client.invalidateQueries({ queryKey: taskKeys.dependencies(workspaceId, id) });
    client.invalidateQueries({ queryKey: taskKeys.activity(workspaceId, id) });
  }
}

export function activityQuery(workspaceId: string, taskId: string) {
  return infiniteQueryOptions({
    queryKey: taskKeys.activity(workspaceId, taskId),
    queryFn: ({ pageParam }) =>
      api<ActivityPage>(`${taskUrl(workspaceId, taskId)}/activity?limit=20${pageParam ? `&before=${pageParam}` : ""}`),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_before,
  });
}
