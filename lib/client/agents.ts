"use client";

import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { api } from "@/lib/client/api";
import type { agentPresetResponse, agentResponse, createAgentBody, updateAgentBody } from "@/lib/agents/schemas";
import type { repositoryResponse, setRepositoryBody } from "@/lib/repositories/schemas";

// Agent profiles and the workspace repository: query options (key, URL, type) and mutations.

export type AgentProfile = z.output<typeof agentResponse>;
export type AgentPreset = z.output<typeof agentPresetResponse>;
export type Repository = z.output<typeof repositoryResponse>;

export const agentKeys = {
  all: (workspaceId: string) => ["agents", workspaceId] as const,
  list: (workspaceId: string) => [...agentKeys.all(workspaceId), "list"] as const,
  presets: (workspaceId: string) => [...agentKeys.all(workspaceId), "presets"] as const,
  repository: (workspaceId: string) => ["repository", workspaceId] as const,
};

export const agentQueries = {
  list: (workspaceId: string) =>
    queryOptions({ queryKey: agentKeys.list(workspaceId), queryFn: () => api<AgentProfile[]>(`/api/workspaces/${workspaceId}/agents`) }),
  presets: (workspaceId: string) =>
    queryOptions({
      queryKey: agentKeys.presets(workspaceId),
      queryFn: () => api<AgentPreset[]>(`/api/workspaces/${workspaceId}/agents/presets`),
      staleTime: Infinity,
    }),
  // A workspace without a repository answers 404: that is "none", not an error.
  repository: (workspaceId: string) =>
    queryOptions({
      queryKey: agentKeys.repository(workspaceId),
      queryFn: () =>
        api<Repository>(`/api/workspaces/${workspaceId}/repository`).catch((error: { status?: number }) => {
          if (error.status === 404) return null;
          throw error;
        }),
    }),
};

export function useAgentProfiles(workspaceId: string) {
  return useQuery(agentQueries.list(workspaceId));
}

export function useAgentPresets(workspaceId: string) {
  return useQuery(agentQueries.presets(workspaceId));
}

export function useRepository(workspaceId: string) {
  return useQuery(agentQueries.repository(workspaceId));
}

export function useCreateAgent(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: z.input<typeof createAgentBody>) =>
      api<AgentProfile>(`/api/workspaces/${workspaceId}/agents`, { method: "POST", json: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: agentKeys.list(workspaceId) }),
  });
}

/** Making a profile the default shows at once; the server's answer (or a refusal) settles it. */
export function useUpdateAgent(workspaceId: string) {
  const client = useQueryClient();
  const key = agentKeys.list(workspaceId);
  return useMutation({
    mutationFn: ({ id, ...input }: z.input<typeof updateAgentBody> & { id: string }) =>
      api<AgentProfile>(`/api/workspaces/${workspaceId}/agents/${id}`, { method: "PATCH", json: input }),
    onMutate: async ({ id, is_default }) => {
      await client.cancelQueries({ queryKey: key });
      const previous = client.getQueryData<AgentProfile[]>(key);
      if (previous && is_default) {
        client.setQueryData<AgentProfile[]>(
          key,
          previous.map((agent) => ({ ...agent, is_default: agent.id === id })),
        );
      }
      return { previous };
    },
    onError: (_error, _input, context) => {
      if (context?.previous) client.setQueryData(key, context.previous);
    },
    onSettled: () => client.invalidateQueries({ queryKey: key }),
  });
}

export function useDeleteAgent(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/api/workspaces/${workspaceId}/agents/${id}`, { method: "DELETE" }),
    onSuccess: () => client.invalidateQueries({ queryKey: agentKeys.list(workspaceId) }),
  });
}

export function useSetRepository(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: z.input<typeof setRepositoryBody>) =>
      api<Repository>(`/api/workspaces/${workspaceId}/repository`, { method: "PUT", json: input }),
    onSuccess: (saved) => client.setQueryData(agentKeys.repository(workspaceId), saved),
  });
}

export function useDeleteRepository(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<void>(`/api/workspaces/${workspaceId}/repository`, { method: "DELETE" }),
    onSuccess: () => client.setQueryData(agentKeys.repository(workspaceId), null),
  });
}
