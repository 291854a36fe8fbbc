import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/client/api";
import { workspaceKeys } from "@/lib/client/query-keys";
import type { Workspace, WorkspaceChanges, WorkspaceWithRole } from "@/lib/client/types";

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

/**
 * Creates a workspace; its creator is its owner. `onCreated` runs in the mutation's own onSuccess,
 * after the caches hold the new workspace: unlike mutate()'s callbacks it runs even when the form
 * that asked is gone, and the page it opens finds the workspace cached.
 */
export function useCreateWorkspace(onCreated?: (created: WorkspaceWithRole) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api<Workspace>("/api/workspaces", { method: "POST", json: { name } }),
    onSuccess: (created) => {
      const owned: WorkspaceWithRole = { ...created, role: "owner" };
      client.setQueryData<WorkspaceWithRole[]>(workspaceKeys.list(), (old = []) => [...old, owned]);
      client.setQueryData(workspaceKeys.detail(created.id), owned);
      onCreated?.(owned);
    },
  });
}

/** Changes the workspace's name or settings (owners); the cached workspace takes the answer. */
export function useUpdateWorkspace(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (changes: WorkspaceChanges) => api<WorkspaceWithRole>(`/api/workspaces/${workspaceId}`, { method: "PATCH", json: changes }),
    onSuccess: (saved) => {
      client.setQueryData(workspaceKeys.detail(workspaceId), saved);
      client.invalidateQueries({ queryKey: workspaceKeys.list() });
    },
  });
}
