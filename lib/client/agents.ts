"use client";

import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { api, ApiClientError } from "@/lib/client/api";
import { agentKeys, repositoryKeys } from "@/lib/client/query-keys";
import { upsertById, useDeleteFromList } from "@/lib/client/list-cache";
import type { agentPresetResponse, agentResponse, createAgentBody, fallbackAgentResponse, updateAgentBody } from "@/lib/agents/schemas";
import type { repositoryResponse, setRepositoryBody } from "@/lib/repositories/schemas";

// Agent profiles and the workspace repository: query options (key, URL, type) and mutations. What a
// person changes shows at once and is put back if the server refuses.

export type AgentProfile = z.output<typeof agentResponse>;
export type AgentPreset = z.output<typeof agentPresetResponse>;
export type AgentInput = z.input<typeof createAgentBody>;
export type AgentUpdate = z.input<typeof updateAgentBody> & { id: string };
export type Repository = z.output<typeof repositoryResponse>;
export type FallbackAgent = z.output<typeof fallbackAgentResponse>;

export function agentsQuery(workspaceId: string) {
  return queryOptions({ queryKey: agentKeys.list(workspaceId), queryFn: () => api<AgentProfile[]>(agentsUrl(workspaceId)) });
}

export function agentPresetsQuery(workspaceId: string) {
  return queryOptions({
    queryKey: agentKeys.presets(workspaceId),
    queryFn: () => api<AgentPreset[]>(`${agentsUrl(workspaceId)}/presets`),
    staleTime: Infinity,
  });
}

/** The agent of a run without a profile (the server's setting: it changes only with a restart). */
export function useFallbackAgent(workspaceId: string) {
  return useQuery({
    queryKey: agentKeys.fallback(workspaceId),
    queryFn: () => api<FallbackAgent>(`${agentsUrl(workspaceId)}/fallback`),
    staleTime: Infinity,
  });
}

/** A workspace without a repository answers 404: that is "none", not an error. */
export function repositoryQuery(workspaceId: string) {
  return queryOptions({
    queryKey: repositoryKeys.detail(workspaceId),
    queryFn: () =>
      api<Repository>(repositoryUrl(workspaceId)).catch((error: unknown) => {
        if (error instanceof ApiClientError && error.status === 404) return null;
        throw error;
      }),
  });
}

export function useAgentProfiles(workspaceId: string) {
  return useQuery(agentsQuery(workspaceId));
}

export function useAgentPresets(workspaceId: string) {
  return useQuery(agentPresetsQuery(workspaceId));
}

export function useRepository(workspaceId: string) {
  return useQuery(repositoryQuery(workspaceId));
}

export function useCreateAgent(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: AgentInput) => api<AgentProfile>(agentsUrl(workspaceId), { method: "POST", json: input }),
    onSuccess: (saved) => {
      client.setQueryData<AgentProfile[]>(agentKeys.list(workspaceId), (old) =>
        old ? [...old.map((agent) => (saved.is_default ? { ...agent, is_default: false } : agent)), saved] : old,
      );
      client.invalidateQueries({ queryKey: agentKeys.list(workspaceId) });
    },
  });
}

/**
 * Stores (value) or removes (null) a model key on a profile. Not optimistic: the key's value never
 * comes back, so the list changes when the server answered with the profile's new key names.
 */
export function useSetAgentKey(workspaceId: string, agentId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ name, value }: { name: string; value: string | null }) =>
      api<AgentProfile>(`${agentsUrl(workspaceId)}/${agentId}/keys/${encodeURIComponent(name)}`, {
        method: value === null ? "DELETE" : "PUT",
        ...(value === null ? {} : { json: { value } }),
      }),
    onSuccess: (saved) => client.setQueryData<AgentProfile[]>(agentKeys.list(workspaceId), (old) => upsertById(old, saved)),
  });
}

/** Edits a profile or makes it the default: shown at once, put back if refused, settled by the server. */
export function useUpdateAgent(workspaceId: string) {
  const client = useQueryClient();
  const key = agentKeys.list(workspaceId);
  return useMutation({
    mutationFn: ({ id, ...input }: AgentUpdate) => api<AgentProfile>(`${agentsUrl(workspaceId)}/${id}`, { method: "PATCH", json: input }),
    onMutate: async ({ id, ...input }) => {
      await client.cancelQueries({ queryKey: key });
      const previous = client.getQueryData<AgentProfile[]>(key);
      client.setQueryData<AgentProfile[]>(key, (old) =>
        old?.map((agent) => {
          if (agent.id === id) return { ...agent, ...definedFields(input) };
          // One default per workspace: the new one takes it from the others.
          return input.is_default ? { ...agent, is_default: false } : agent;
        }),
      );
      return { previous };
    },
    onError: (_error, _input, context) => {
      if (context?.previous) client.setQueryData(key, context.previous);
    },
    onSettled: () => client.invalidateQueries({ queryKey: key }),
  });
}

export function useDeleteAgent(workspaceId: string) {
  return useDeleteFromList<AgentProfile>(agentKeys.list(workspaceId), (id) => `${agentsUrl(workspaceId)}/${id}`);
}

export function useSetRepository(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: z.input<typeof setRepositoryBody>) => api<Repository>(repositoryUrl(workspaceId), { method: "PUT", json: input }),
    onSuccess: (saved) => client.setQueryData(repositoryKeys.detail(workspaceId), saved),
  });
}

/** Disconnecting shows at once; a refusal brings the repository back. */
export function useDeleteRepository(workspaceId: string) {
  const client = useQueryClient();
  const key = repositoryKeys.detail(workspaceId);
  return useMutation({
    mutationFn: () => api<void>(repositoryUrl(workspaceId), { method: "DELETE" }),
    onMutate: async () => {
      await client.cancelQueries({ queryKey: key });
      const previous = client.getQueryData<Repository | null>(key);
      client.setQueryData(key, null);
      return { previous };
    },
    onError: (_error, _input, context) => {
      if (context?.previous) client.setQueryData(key, context.previous);
    },
  });
}

const agentsUrl = (workspaceId: string) => `/api/workspaces/${workspaceId}/agents`;
const repositoryUrl = (workspaceId: string) => `/api/workspaces/${workspaceId}/repository`;

function definedFields<T extends object>(input: T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as Partial<T>;
}
