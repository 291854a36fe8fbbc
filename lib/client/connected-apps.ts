import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/client/api";
import { connectedClientKeys } from "@/lib/client/query-keys";
import type { ConnectedClient } from "@/lib/oauth/schemas";

// The MCP clients the signed-in person allowed over OAuth (Settings → Connected apps).

const url = "/api/me/oauth-clients";

export function connectedAppsQuery() {
  return queryOptions({ queryKey: connectedClientKeys.all, queryFn: () => api<ConnectedClient[]>(url) });
}

export function useDisconnectApp() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (clientId: string) => api<void>(`${url}/${encodeURIComponent(clientId)}`, { method: "DELETE" }),
    onSuccess: (_nothing, clientId) =>
      client.setQueryData<ConnectedClient[]>(connectedClientKeys.all, (old = []) => old.filter((app) => app.client_id !== clientId)),
  });
}
