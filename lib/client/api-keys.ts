import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/client/api";
import { apiKeyKeys } from "@/lib/client/query-keys";
import type { ApiKey, CreatedApiKey } from "@/lib/client/types";

// The signed-in person's API keys (not a workspace's).

const apiKeysUrl = "/api/auth/api-keys";

export function apiKeysQuery() {
  return queryOptions({ queryKey: apiKeyKeys.all, queryFn: () => api<ApiKey[]>(apiKeysUrl) });
}

/** Creates a key; the answer holds the secret, the only time it is shown. */
export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api<CreatedApiKey>(apiKeysUrl, { method: "POST", json: { name } }),
    onSuccess: (key) => client.setQueryData<ApiKey[]>(apiKeyKeys.all, (old = []) => [key, ...old]),
  });
}

export function useDeleteApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<void>(`${apiKeysUrl}/${id}`, { method: "DELETE" }),
    onSuccess: (_nothing, id) => client.setQueryData<ApiKey[]>(apiKeyKeys.all, (old = []) => old.filter((key) => key.id !== id)),
  });
}
