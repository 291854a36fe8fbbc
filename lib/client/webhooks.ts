import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/client/api";
import { upsertById } from "@/lib/client/list-cache";
import { webhookKeys } from "@/lib/client/query-keys";
import type {
  CreatedWebhook,
  CreateWebhookInput,
  UpdateWebhookInput,
  Webhook,
  WebhookDeliveries,
  WebhookDelivery,
} from "@/lib/client/types";
import { DELIVERY_STATUS } from "@/lib/webhooks/statuses";

// The workspace's outbound webhooks (owners only) and their deliveries.

const webhooksUrl = (workspaceId: string) => `/api/workspaces/${workspaceId}/webhooks`;
const DELIVERIES_SHOWN = 10;

export function webhooksQuery(workspaceId: string, enabled = true) {
  return queryOptions({
    queryKey: webhookKeys.list(workspaceId),
    queryFn: () => api<Webhook[]>(webhooksUrl(workspaceId)),
    enabled,
  });
}

/** The answer carries the generated secret once: the caller shows it; the list is read again (without it). */
export function useCreateWebhook(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateWebhookInput) => api<CreatedWebhook>(webhooksUrl(workspaceId), { method: "POST", json: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: webhookKeys.list(workspaceId) }),
  });
}

export function useUpdateWebhook(workspaceId: string, webhookId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateWebhookInput) => api<Webhook>(`${webhooksUrl(workspaceId)}/${webhookId}`, { method: "PATCH", json: input }),
    onSuccess: (saved) => client.setQueryData<Webhook[]>(webhookKeys.list(workspaceId), (old) => upsertById(old, saved)),
  });
}

export function useDeleteWebhook(workspaceId: string, webhookId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<void>(`${webhooksUrl(workspaceId)}/${webhookId}`, { method: "DELETE" }),
    onSuccess: () => client.setQueryData<Webhook[]>(webhookKeys.list(workspaceId), (old) => old?.filter((hook) => hook.id !== webhookId)),
  });
}

/** The newest deliveries; read again every few seconds while one is pending, so the outcome shows up. */
export function useWebhookDeliveries(workspaceId: string, webhookId: string) {
  return useQuery({
    queryKey: webhookKeys.deliveries(workspaceId, webhookId),
    queryFn: () => api<WebhookDeliveries>(`${webhooksUrl(workspaceId)}/${webhookId}/deliveries?limit=${DELIVERIES_SHOWN}`),
    refetchInterval: (query) => (query.state.data?.items.some((item) => item.status === DELIVERY_STATUS.pending) ? 2_000 : 15_000),
  });
}

export function useRedeliver(workspaceId: string, webhookId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) =>
      api<WebhookDelivery>(`${webhooksUrl(workspaceId)}/${webhookId}/deliveries/${deliveryId}/redeliver`, { method: "POST" }),
    onSuccess: () => client.invalidateQueries({ queryKey: webhookKeys.deliveries(workspaceId, webhookId) }),
  });
}
