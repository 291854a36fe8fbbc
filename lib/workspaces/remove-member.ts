import type { Db } from "@/lib/db/client";
import { conflict, notFound } from "@/lib/platform/errors";

/**
 * Removes a user from a workspace. The workspace's owner rows are locked first, so two owners
 * removing each other at once cannot leave the workspace with none: the second sees one owner left.
 */
export async function removeMember(db: Db, workspaceId: string, userId: string): Promise<void> {
  await db.$transaction(async (tx) => {
    const owners = await tx.$queryRaw<{ user_id: string }[]>`
      SELECT user_id FROM memberships WHERE workspace_id = ${workspaceId} AND role = 'owner' FOR UPDATE`;
    const membership = await tx.membership.findUnique({ where: { workspaceId_userId: { workspaceId, userId } }, select: { role: true } });
    if (!membership) throw notFound("Member");
    if (membership.role === "owner" && owners.length <= 1)
      throw conflict("The last owner cannot be removed; make another member an owner first");
    await tx.membership.delete({ where: { workspaceId_userId: { workspaceId, userId } } });
  });
}
