import type { Db } from "@/lib/db/client";
import { notFound } from "@/lib/platform/errors";

/** Revokes an open invitation; its link answers 410 from now on. Another workspace's id is not found. */
export async function revokeInvitation(db: Db, workspaceId: string, invitationId: string): Promise<void> {
  const { count } = await db.invitation.updateMany({
    where: { id: invitationId, workspaceId, acceptedAt: null, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (count === 0) throw notFound("Open invitation");
}
