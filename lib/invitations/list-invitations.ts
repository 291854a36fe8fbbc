import type { Db } from "@/lib/db/client";
import { serializeInvitation } from "@/lib/invitations/serialize";

/** The workspace's open invitations (not used, revoked or expired), newest first. */
export async function listInvitations(db: Db, workspaceId: string) {
  const rows = await db.invitation.findMany({
    where: { workspaceId, acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date() } },
    orderBy: { createdAt: "desc" },
    take: 200,
  });
  return rows.map(serializeInvitation);
}
