import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/client/api";
import { slackKeys, workspaceKeys } from "@/lib/client/query-keys";
import type { SlackStatus, WorkspaceWithRole } from "@/lib/client/types";

/** Settings → Slack (owners): whether the server's Slack app works, and the workspace's channel. */
export function slackStatusQuery(workspaceId: string) {
  return queryOptions({ queryKey: slackKeys.status(workspaceId), queryFn: () => api<SlackStatus>(`/api/workspaces/${workspaceId}/slack`) });
}

/** Sets (or, with null, clears) the channel questions are posted to. */
export function useSetSlackChannel(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (slack_channel: string | null) =>
      api<WorkspaceWithRole>(`/api/workspaces/${workspaceId}`, { method: "PATCH", json: { slack_channel } }),
    onSuccess: (saved) => {
      client.setQueryData(workspaceKeys.detail(workspaceId), saved);
      void client.invalidateQueries({ queryKey: slackKeys.status(workspaceId) });
    },
  });
}
