import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/client/api";
import { reactionKeys } from "@/lib/client/query-keys";
import type { ReactionState } from "@/lib/client/types";

// The workspace's reactions and their last errors (owners only).

export function reactionsQuery(workspaceId: string) {
  return queryOptions({
    queryKey: reactionKeys.list(workspaceId),
    queryFn: () => api<ReactionState[]>(`/api/workspaces/${workspaceId}/reactions`),
  });
}
