import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/client/api";
import { workspaceKeys } from "@/lib/client/query-keys";
import type { Member, MemberRole } from "@/lib/client/types";

// A workspace's members. Only owners add and remove them; the server says so with 403.

const membersUrl = (workspaceId: string) => `/api/workspaces/${workspaceId}/members`;

export function membersQuery(workspaceId: string) {
  return queryOptions({
    queryKey: workspaceKeys.members(workspaceId),
    queryFn: () => api<Member[]>(membersUrl(workspaceId)),
  });
}

export function useAddMember(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { username: string; role: MemberRole }) => api<Member>(membersUrl(workspaceId), { method: "POST", json: input }),
    onSuccess: (member) => client.setQueryData<Member[]>(workspaceKeys.members(workspaceId), (old = []) => [...old, member]),
  });
}

/** Removes a member (204). The last owner cannot be removed (409); the list changes only once the server agrees. */
export function useRemoveMember(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (member: Member) => api<void>(`${membersUrl(workspaceId)}/${member.user_id}`, { method: "DELETE" }),
    onSuccess: (_nothing, removed) =>
      client.setQueryData<Member[]>(workspaceKeys.members(workspaceId), (old = []) => old.filter((m) => m.user_id !== removed.user_id)),
  });
}
