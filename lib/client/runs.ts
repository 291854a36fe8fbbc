import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/client/api";
import { executionKeys, taskKeys } from "@/lib/client/query-keys";
import type { Execution, TaskRun } from "@/lib/client/types";

// A task's agent runs: their history, and starting the conflict-fixing run.

export function taskRunsQuery(workspaceId: string, taskId: string) {
  return queryOptions({
    queryKey: taskKeys.runs(workspaceId, taskId),
    queryFn: () => api<TaskRun[]>(`/api/workspaces/${workspaceId}/tasks/${taskId}/runs`),
  });
}

/** Starts an agent run that fixes the task's merge conflict; the execution it returns is cached for the live view. */
export function useFixConflicts(workspaceId: string, taskId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<Execution>(`/api/workspaces/${workspaceId}/tasks/${taskId}/fix-conflicts`, { method: "POST" }),
    onSuccess: (execution) => client.setQueryData(executionKeys.detail(workspaceId, execution.id), execution),
  });
}
