import { queryOptions, replaceEqualDeep, useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { api } from "@/lib/client/api";
import { executionKeys } from "@/lib/client/query-keys";
import { ACTIVE_RUN_STATUSES, type Execution } from "@/lib/client/types";

// One execution (a process an agent run started): its record and its log.
//
// Its record reaches the cache by three roads: a read, a write's answer and the event stream. They
// can arrive out of order: a quick agent's "failed" event can come before the answer of the POST
// that started it ("running"), and a read under way when an event arrives answers with what it saw
// before. The later state must win, or the run view shows "running" for good with no event to come
// to correct it. An execution's states only go forward: it never leaves a finished status, and its
// log only grows.

/** Which of two records of one execution is the later state (shared where unchanged, as a read's would be). */
export function laterExecution(known: Execution | undefined, incoming: Execution): Execution {
  if (!known || known.id !== incoming.id) return incoming;
  const knownEnded = !ACTIVE_RUN_STATUSES.has(known.status);
  const incomingEnded = !ACTIVE_RUN_STATUSES.has(incoming.status);
  // An end always wins over a live state (its line count is the runner's, which may be lower).
  const backwards = knownEnded === incomingEnded ? incoming.line_count < known.line_count : knownEnded;
  return backwards ? known : replaceEqualDeep(known, { ...known, ...incoming });
}

/** Puts a write's answer or an event's record in the cache, unless the cache holds a later state. */
export function cacheExecution(client: QueryClient, workspaceId: string, execution: Execution) {
  client.setQueryData<Execution>(executionKeys.detail(workspaceId, execution.id), (known) => laterExecution(known, execution));
}

const executionUrl = (workspaceId: string, executionId: string) => `/api/workspaces/${workspaceId}/executions/${executionId}`;

export function executionQuery(workspaceId: string, executionId: string) {
  return queryOptions({
    queryKey: executionKeys.detail(workspaceId, executionId),
    queryFn: () => api<Execution>(executionUrl(workspaceId, executionId)),
    // A read that started before an event and answers after it must not undo it.
    structuralSharing: (known, incoming) => laterExecution(known as Execution | undefined, incoming as Execution),
    // Events keep it current; the slow poll only covers a dropped event stream.
    refetchInterval: (query) => (query.state.data && !ACTIVE_RUN_STATUSES.has(query.state.data.status) ? false : 3_000),
  });
}

/** Cancels a run's execution: the agent is asked to stop, then stopped (docs/agents.md). */
export function useCancelExecution(workspaceId: string, executionId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<Execution>(`${executionUrl(workspaceId, executionId)}/cancel`, { method: "POST" }),
    onSuccess: (execution) => cacheExecution(client, workspaceId, execution),
  });
}
