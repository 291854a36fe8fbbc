import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/client/api";
import { upsertById, useDeleteFromList } from "@/lib/client/list-cache";
import { projectKeys } from "@/lib/client/query-keys";
import type { Project, ProjectInput } from "@/lib/client/types";

const projectsUrl = (workspaceId: string) => `/api/workspaces/${workspaceId}/projects`;

export function projectsQuery(workspaceId: string) {
  return queryOptions({
    queryKey: projectKeys.list(workspaceId),
    queryFn: () => api<Project[]>(projectsUrl(workspaceId)),
  });
}

/** Creates a project (projectId null) or updates one. */
export function useSaveProject(workspaceId: string, projectId: string | null) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ProjectInput) =>
      projectId
        ? api<Project>(`${projectsUrl(workspaceId)}/${projectId}`, { method: "PATCH", json: input })
        : api<Project>(projectsUrl(workspaceId), { method: "POST", json: input }),
    onSuccess: (saved) => client.setQueryData<Project[]>(projectKeys.list(workspaceId), (old) => upsertById(old, saved)),
  });
}

/** Its tasks stay, without a project (the server unlinks them). */
export function useDeleteProject(workspaceId: string) {
  return useDeleteFromList<Project>(projectKeys.list(workspaceId), (id) => `${projectsUrl(workspaceId)}/${id}`);
}
