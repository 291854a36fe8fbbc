import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/client/api";
import { codehostKeys } from "@/lib/client/query-keys";
import type {
  CodehostConnectInput,
  CodehostStatus,
  GithubDeliveries,
  GithubInstall,
  GithubRepositories,
  GithubSettings,
} from "@/lib/client/types";

// The workspace's GitHub connection.

const codehostUrl = (workspaceId: string) => `/api/workspaces/${workspaceId}/codehost`;

export function useCodehostStatus(workspaceId: string) {
  return useQuery({
    queryKey: codehostKeys.status(workspaceId),
    queryFn: () => api<CodehostStatus>(`${codehostUrl(workspaceId)}/status`),
    staleTime: 60_000,
  });
}

export function useConnectCodehost(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CodehostConnectInput) => api<CodehostStatus>(codehostUrl(workspaceId), { method: "PUT", json: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: codehostKeys.status(workspaceId) }),
  });
}

export function useDisconnectCodehost(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<void>(codehostUrl(workspaceId), { method: "DELETE" }),
    onSuccess: () => client.invalidateQueries({ queryKey: codehostKeys.status(workspaceId) }),
  });
}

/** "Connect GitHub": asks for the App's installation page (with its signed state) and goes there. */
export function useStartGithubInstall(workspaceId: string) {
  return useMutation({
    mutationFn: () => api<GithubInstall>(`${codehostUrl(workspaceId)}/github/install`, { method: "POST" }),
    onSuccess: ({ install_url }) => window.location.assign(install_url),
  });
}

/** The repositories the recorded installation can see; a 409 means no installation is recorded yet. */
export function useGithubRepositories(workspaceId: string, enabled: boolean) {
  return useQuery({
    queryKey: codehostKeys.repositories(workspaceId),
    queryFn: () => api<GithubRepositories>(`${codehostUrl(workspaceId)}/github/repositories`),
    enabled,
    retry: false,
  });
}

export function useLastGithubDelivery(workspaceId: string, enabled: boolean) {
  return useQuery({
    queryKey: codehostKeys.deliveries(workspaceId),
    queryFn: () => api<GithubDeliveries>(`${codehostUrl(workspaceId)}/github/deliveries?limit=1`),
    select: (page) => page.items[0] ?? null,
    enabled,
    refetchInterval: 30_000,
  });
}

/** How the workspace follows GitHub: merged → done and the three automations. */
export function useGithubSettings(workspaceId: string) {
  return useQuery({
    queryKey: codehostKeys.settings(workspaceId),
    queryFn: () => api<GithubSettings>(`${codehostUrl(workspaceId)}/github/settings`),
  });
}

/** Changes some of them (owners); the cache takes the server's answer. */
export function useUpdateGithubSettings(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (patch: Partial<GithubSettings>) =>
      api<GithubSettings>(`${codehostUrl(workspaceId)}/github/settings`, { method: "PATCH", json: patch }),
    onSuccess: (saved) => client.setQueryData(codehostKeys.settings(workspaceId), saved),
  });
}
