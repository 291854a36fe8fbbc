import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/client/api";
import { currentUserKeys } from "@/lib/client/query-keys";
import type { CurrentUser } from "@/lib/client/types";

// Who is signed in, read from the server (not the session cookie): whether they are a server
// administrator decides which settings sections they see, and the server may have changed it.

export function currentUserQuery() {
  return queryOptions({ queryKey: currentUserKeys.me, queryFn: () => api<CurrentUser>("/api/auth/me"), staleTime: 60_000 });
}
