import { json, withUser } from "@/lib/api/handler";
import { searchUsersQuery } from "@/lib/users/schemas";
import { searchUsers } from "@/lib/users/search-users";

// The people picker (Settings → Members): names only, at most 20; owners and administrators.
export const GET = withUser({ query: searchUsersQuery }, async ({ db, caller, query }) =>
  json(await searchUsers(db, caller, query.q, query.workspace_id)),
);
