import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { api } from "@/lib/client/api";
import { notificationKeys } from "@/lib/client/query-keys";
import type { watchResponse } from "@/lib/notifications/schemas";

// Whether the signed-in person watches a workspace's questions (docs/notifications.md, "Watching").
// The switch flips at once and flips back if the server refuses.

type Watch = z.output<typeof watchResponse>;

export function useWatch(workspaceId: string) {
  return useQuery({
    queryKey: notificationKeys.watch(workspaceId),
    queryFn: () => api<Watch>(`/api/workspaces/${workspaceId}/watch`),
  });
}

export function useSetWatch(workspaceId: string) {
  const client = useQueryClient();
  const key = notificationKeys.watch(workspaceId);
  return useMutation({
    mutationFn: (watching: boolean) => api<Watch>(`/api/workspaces/${workspaceId}/watch`, { method: "PUT", json: { watching } }),
    onMutate: async (watching) => {
      // Other readers of the watch (and a reload of this screen) see the new value at once.
      const before = client.getQueryData<Watch>(key);
      client.setQueryData<Watch>(key, { watching });
      await client.cancelQueries({ queryKey: key });
      return { before };
    },
    onError: (_error, _watching, context) => client.setQueryData(key, context?.before),
    onSuccess: (saved) => client.setQueryData(key, saved),
  });
}
