import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/client/api";
import { codehostKeys } from "@/lib/client/query-keys";
import type { CodehostConnectInput, CodehostStatus } from "@/lib/client/types";

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
