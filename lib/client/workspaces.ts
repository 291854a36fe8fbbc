import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/client/api";
import { workspaceKeys } from "@/lib/client/query-keys";
import type { Workspace, WorkspaceWithRole } from "@/lib/client/types";

// The signed-in person's workspaces, each with their role in it.

export function workspacesQuery() {
  return queryOptions({ queryKey: workspaceKeys.list(), queryFn: () => api<WorkspaceWithRole[]>("/api/workspaces") });
}

export function workspaceQuery(workspaceId: string) {
  return queryOptions({
    queryKey: workspaceKeys.detail(workspaceId),
    queryFn: () => api<WorkspaceWithRole>(`/api/workspaces/${workspaceId}`),
  });
}

/** Creates a workspace; its creator is its owner. */
export function useCreateWorkspace() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api<Workspace>("/api/workspaces", { method: "POST", json: { name } }),
    onSuccess: (created) =>
      client.setQueryData<WorkspaceWithRole[]>(workspaceKeys.list(), (old = []) => [...old, { ...created, role: "owner" }]),
  });
}

/** Changes the workspace's name or settings (owners); the cached workspace takes the answer. */
export function useUpdateWorkspace(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (changes: { name?: string; auto_start_unblocked?: boolean }) =>
      api<WorkspaceWithRole>(`/api/workspaces/${workspaceId}`, { method: "PATCH", json: changes }),
    onSuccess: (saved) => {
      client.setQueryData(workspaceKeys.detail(workspaceId), saved);
      client.invalidateQueries({ queryKey: workspaceKeys.list() });
    },
  });
}
