import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/client/api";
import { taskKeys } from "@/lib/client/query-keys";
import type { Task } from "@/lib/client/types";

// A task's pull request on the connected GitHub repository.

/** Pushes the task's branch and opens (or links) its pull request; answers the linked task. */
export function useOpenPullRequest(workspaceId: string, taskId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input?: { draft?: boolean }) =>
      api<Task>(`/api/workspaces/${workspaceId}/tasks/${taskId}/pull-request`, { method: "POST", json: input ?? {} }),
    onSuccess: (task) => client.setQueryData(taskKeys.detail(workspaceId, taskId), task),
  });
}
