import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/client/api";
import { workspaceKeys } from "@/lib/client/query-keys";
import type { AcceptedInvitation, CreatedInvitation, Invitation, InvitationPreview, MemberRole } from "@/lib/client/types";

// A workspace's open invitations (owners), and the invitation page's preview and accept.

const invitationsUrl = (workspaceId: string) => `/api/workspaces/${workspaceId}/invitations`;

export function invitationsQuery(workspaceId: string, enabled = true) {
  return queryOptions({
    queryKey: workspaceKeys.invitations(workspaceId),
    queryFn: () => api<Invitation[]>(invitationsUrl(workspaceId)),
    enabled,
  });
}

/** Creates an invitation; its link comes back this once (the list never shows it). */
export function useCreateInvitation(workspaceId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { role: MemberRole; email: string | null }) =>
      api<CreatedInvitation>(invitationsUrl(workspaceId), { method: "POST", json: input }),
    // The list's rows carry no link (the server keeps none); the created one's stays in the form.
    onSuccess: (created) =>
      client.setQueryData<Invitation[]>(workspaceKeys.invitations(workspaceId), (old = []) => [withoutUrl(created), ...old]),
  });
}

/** Revokes at once in the list; put back if the server refuses. */
export function useRevokeInvitation(workspaceId: string) {
  const client = useQueryClient();
  const key = workspaceKeys.invitations(workspaceId);
  return useMutation({
    mutationFn: (invitation: Invitation) => api<void>(`${invitationsUrl(workspaceId)}/${invitation.id}`, { method: "DELETE" }),
    onMutate: async (invitation) => {
      await client.cancelQueries({ queryKey: key });
      const before = client.getQueryData<Invitation[]>(key);
      client.setQueryData<Invitation[]>(key, (old = []) => old.filter((i) => i.id !== invitation.id));
      return { before };
    },
    onError: (_error, _invitation, context) => client.setQueryData(key, context?.before),
  });
}

export function invitationPreviewQuery(token: string) {
  return queryOptions({
    queryKey: ["invitation", token] as const,
    queryFn: () => api<InvitationPreview>(`/api/invitations/${encodeURIComponent(token)}`),
    retry: false,
  });
}

/** Accepts as the signed-in person (no fields), or with a new account's fields. */
export function useAcceptInvitation(token: string) {
  return useMutation({
    mutationFn: (account: { username: string; password: string; display_name: string | null } | null) =>
      api<AcceptedInvitation>(`/api/invitations/${encodeURIComponent(token)}/accept`, { method: "POST", json: account ?? {} }),
  });
}

function withoutUrl(created: CreatedInvitation): Invitation {
  const { id, workspace_id, role, email, expires_at, created_at } = created;
  return { id, workspace_id, role, email, expires_at, created_at };
}
