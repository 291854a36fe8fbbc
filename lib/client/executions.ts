import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/client/api";
import { executionKeys } from "@/lib/client/query-keys";
import { ACTIVE_RUN_STATUSES, type Execution } from "@/lib/client/types";

// One execution (a process an agent run started): its record and its log.

const executionUrl = (workspaceId: string, executionId: string) => `/api/workspaces/${workspaceId}/executions/${executionId}`;

export function executionQuery(workspaceId: string, executionId: string) {
  return queryOptions({
    queryKey: executionKeys.detail(workspaceId, executionId),
    queryFn: () => api<Execution>(executionUrl(workspaceId, executionId)),
    // Events keep it current; the slow poll only covers a dropped event stream.
    refetchInterval: (query) => (query.state.data && !ACTIVE_RUN_STATUSES.has(query.state.data.status) ? false : 3_000),
  });
}

/** Cancels a run's execution: the agent is asked to stop, then stopped (docs/agents.md). */
export function useCancelExecution(workspaceId: string, executionId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<Execution>(`${executionUrl(workspaceId, executionId)}/cancel`, { method: "POST" }),
    onSuccess: (execution) => client.setQueryData(executionKeys.detail(workspaceId, executionId), execution),
  });
}
