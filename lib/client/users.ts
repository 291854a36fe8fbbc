import { keepPreviousData, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/client/api";
import { currentUserKeys, userKeys, workspaceKeys } from "@/lib/client/query-keys";
import type { CurrentUser, UserMatch } from "@/lib/client/types";

// Users: the administrators' list and changes (Settings → Users), the people picker's search, and
// a person's own display name.

export function usersQuery(enabled: boolean) {
  return queryOptions({ queryKey: userKeys.list(), queryFn: () => api<CurrentUser[]>("/api/users"), enabled });
}

/** Names matching `q`, members of `workspaceId` left out; at most 20 (GET /api/users/search). */
export function userSearchQuery(q: string, workspaceId: string) {
  const params = new URLSearchParams({ q, workspace_id: workspaceId });
  return queryOptions({
    queryKey: userKeys.search(q, workspaceId),
    queryFn: () => api<UserMatch[]>(`/api/users/search?${params}`),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}

export function useCreateUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { username: string; password: string; display_name: string | null; is_admin: boolean }) =>
      api<CurrentUser>("/api/users", { method: "POST", json: input }),
    onSuccess: (user) => client.setQueryData<CurrentUser[]>(userKeys.list(), (old = []) => [...old, user]),
  });
}

/** Disables, enables or resets a user; the row changes at once and comes back if the server refuses. */
export function useUpdateUser() {
  const client = useQueryClient();
  const key = userKeys.list();
  return useMutation({
    mutationFn: ({ id, ...changes }: { id: string; disabled?: boolean; password?: string }) =>
      api<CurrentUser>(`/api/users/${id}`, { method: "PATCH", json: changes }),
    onMutate: async ({ id, disabled }) => {
      await client.cancelQueries({ queryKey: key });
      const before = client.getQueryData<CurrentUser[]>(key);
      if (disabled !== undefined)
        client.setQueryData<CurrentUser[]>(key, (old = []) => old.map((u) => (u.id === id ? { ...u, disabled } : u)));
      return { before };
    },
    onError: (_error, _input, context) => client.setQueryData(key, context?.before),
    onSuccess: (user) => client.setQueryData<CurrentUser[]>(key, (old = []) => old.map((u) => (u.id === user.id ? user : u))),
  });
}

export function useUpdateMe() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (patch: { display_name: string | null; email: string | null }) =>
      api<CurrentUser>("/api/auth/me", { method: "PATCH", json: patch }),
    onSuccess: (me) => {
      client.setQueryData(currentUserKeys.me, me);
      // Member lists show the new name.
      void client.invalidateQueries({ queryKey: [...workspaceKeys.all, "members"] });
    },
  });
}
