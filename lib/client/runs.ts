import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/client/api";
import { findTask, patchTask } from "@/lib/client/board-cache";
import { cacheExecution } from "@/lib/client/executions";
import { diffKeys, taskKeys } from "@/lib/client/query-keys";
import type { Execution, RunHistoryItem, StartRunInput, TaskDiff } from "@/lib/client/types";
import { RUN_STATUS } from "@/lib/runs/statuses";

// A task's agent runs: their history, starting one (from the Run agent dialog or a review's
// "Request changes"), the conflict-fixing run, and the diff of the task's branch.

export type RunRecord = RunHistoryItem;

export function taskRunsQuery(workspaceId: string, taskId: string) {
  return queryOptions({
    queryKey: taskKeys.runs(workspaceId, taskId),
    queryFn: () => api<RunRecord[]>(`/api/workspaces/${workspaceId}/tasks/${taskId}/runs`),
  });
}

/**
 * Starts an agent run. The card shows "Queued" at once and goes back to what it showed if the server
 * refuses (a run already active, a deleted profile); the execution it returns is cached for the live view.
 */
export function useStartRun(workspaceId: string, taskId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: StartRunInput) =>
      api<Execution>(`/api/workspaces/${workspaceId}/tasks/${taskId}/runs`, { method: "POST", json: input }),
    onMutate: () => {
      const before = findTask(client, workspaceId, taskId);
      const previous = before ? { status: before.latest_run_status, error: before.latest_run_error } : null;
      patchTask(client, workspaceId, taskId, (task) => ({ ...task, latest_run_status: RUN_STATUS.queued, latest_run_error: null }));
      return { previous };
    },
    onError: (_error, _input, context) => {
      const previous = context?.previous;
      if (previous) {
        patchTask(client, workspaceId, taskId, (task) => ({
          ...task,
          latest_run_status: previous.status,
          latest_run_error: previous.error,
        }));
      }
    },
    onSuccess: (execution) => {
      cacheExecution(client, workspaceId, execution);
      client.invalidateQueries({ queryKey: taskKeys.runs(workspaceId, taskId) });
    },
  });
}

/** Starts an agent run that fixes the task's merge conflict; the execution it returns is cached for the live view. */
/**
 * The callbacks belong to the mutation, not to one mutate() call: a clean merge can finish (and the
 * live board remove the card's Fix conflicts button) before the answer arrives, and mutate()'s own
 * callbacks never run once their component is gone.
 */
export function useFixConflicts(
  workspaceId: string,
  taskId: string,
  on: { started?: (execution: Execution) => void; failed?: (error: Error) => void } = {},
) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<Execution>(`/api/workspaces/${workspaceId}/tasks/${taskId}/fix-conflicts`, { method: "POST" }),
    onSuccess: (execution) => {
      cacheExecution(client, workspaceId, execution);
      on.started?.(execution);
    },
    onError: (error) => on.failed?.(error),
  });
}

/** The task branch's changes against its base (409 in words when the task has no branch or no repository). */
export function useTaskDiff(workspaceId: string, taskId: string, enabled = true) {
  return useQuery({
    queryKey: diffKeys.task(workspaceId, taskId),
    queryFn: () => api<TaskDiff>(`/api/workspaces/${workspaceId}/tasks/${taskId}/diff`),
    enabled,
    retry: false,
  });
}
