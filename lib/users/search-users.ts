import type { Db } from "@/lib/db/client";
import type { Caller } from "@/lib/auth/authenticate";
import { forbidden } from "@/lib/platform/errors";

const LIMIT = 20;

/**
 * The people picker's search, for server administrators and workspace owners (who add members):
 * enabled users whose username or display name contains `q`, at most 20, with nothing but their
 * names. With `workspaceId` (one the caller owns) its members are left out.
 */
export async function searchUsers(db: Db, caller: Pick<Caller, "userId" | "isAdmin">, q: string, workspaceId?: string) {
  const owned = await db.membership.findFirst({
    where: { userId: caller.userId, role: "owner", ...(workspaceId ? { workspaceId } : {}) },
    select: { workspaceId: true },
  });
  if (!owned && !caller.isAdmin) throw forbidden("Only workspace owners and administrators may search for people");
  const rows = await db.user.findMany({
    where: {
      disabled: false,
      ...(q ? { OR: [{ username: { contains: q, mode: "insensitive" } }, { displayName: { contains: q, mode: "insensitive" } }] } : {}),
      ...(workspaceId ? { memberships: { none: { workspaceId } } } : {}),
    },
    select: { id: true, username: true, displayName: true },
    orderBy: { username: "asc" },
    take: LIMIT,
  });
  return rows.map((row) => ({ id: row.id, username: row.username, display_name: row.displayName }));
}
