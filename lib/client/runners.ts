import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/client/api";
import { runnerKeys } from "@/lib/client/query-keys";
import type { CreatedRunner, CreateRunnerInput, Runner, WorkspaceRunners } from "@/lib/client/types";

// The server's runners (docs/runners.md), for administrators: registering one answers with its
// token, the only time it is shown; deleting one stops its token at once.

const runnersUrl = "/api/runners";

/**
 * Polled: a runner's status, load and last call change without any event the browser hears (runners
 * are server-wide, the event stream is per workspace), and a new runner should be seen coming online.
 */
export function runnersQuery() {
  return queryOptions({ queryKey: runnerKeys.list, queryFn: () => api<Runner[]>(runnersUrl), refetchInterval: 3_000 });
}

export function useCreateRunner() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateRunnerInput) => api<CreatedRunner>(runnersUrl, { method: "POST", json: input }),
    onSuccess: (created) => {
      // The list holds records, never the token.
      const record: Runner & { token?: string } = { ...created };
      delete record.token;
      client.setQueryData<Runner[]>(runnerKeys.list, (old = []) => [...old, record]);
    },
  });
}

export function useDeleteRunner() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (runnerId: string) => api<void>(`${runnersUrl}/${runnerId}`, { method: "DELETE" }),
    onSuccess: (_nothing, runnerId) =>
      client.setQueryData<Runner[]>(runnerKeys.list, (old = []) => old.filter((runner) => runner.id !== runnerId)),
  });
}

/** A workspace's choice of runners (any member reads it; owners change it). Polled like the list: runners come and go. */
export function workspaceRunnersQuery(workspaceId: string) {
  return queryOptions({
    queryKey: runnerKeys.workspace(workspaceId),
    queryFn: () => api<WorkspaceRunners>(`/api/workspaces/${workspaceId}/runners`),
    refetchInterval: 10_000,
  });
}

/** null: every runner of the server. */
export function useSetWorkspaceRunners(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (runnerIds: string[] | null) =>
      api<WorkspaceRunners>(`/api/workspaces/${workspaceId}/runners`, { method: "PUT", json: { runner_ids: runnerIds } }),
    onSuccess: (saved) => client.setQueryData(runnerKeys.workspace(workspaceId), saved),
  });
}

/** "gpu, docker ,, x" → ["gpu", "docker", "x"]: the form's comma-separated labels as the API takes them. */
export function parseLabels(text: string): string[] {
  return text
    .split(",")
    .map((label) => label.trim())
    .filter(Boolean);
}

/**
 * The command that starts a runner for this board, as `npm run runner` takes it (lib/runner-process/main.ts),
 * with the capacity it was added with: the server never hands it more, and the runner would say its own default.
 */
export function runnerCommand(boardUrl: string, token: string, capacity: number): string {
  return `npm run runner -- --url ${boardUrl.replace(/\/+$/, "")} --token ${token} --capacity ${capacity}`;
}
