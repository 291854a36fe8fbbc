import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/client/api";
import { reactionKeys } from "@/lib/client/query-keys";
import type { ReactionState } from "@/lib/client/types";

// The workspace's reactions and their last errors (owners only).

/**
 * Read again every 2 s while a reaction that is not failing has events to go: catching up records
 * no event of its own (notify-runs reading a run's end changes nothing the stream carries), so only
 * a read shows "up to date". A failing one waits for its back-off, so the slow read suits it.
 */
export function reactionsQuery(workspaceId: string) {
  return queryOptions({
    queryKey: reactionKeys.list(workspaceId),
    queryFn: () => api<ReactionState[]>(`/api/workspaces/${workspaceId}/reactions`),
    refetchInterval: (query) => (query.state.data?.some((reaction) => reaction.behind > 0 && reaction.attempts === 0) ? 2_000 : 15_000),
  });
}
