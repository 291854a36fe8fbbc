import type { Db } from "@/lib/db/client";
import { conflict, forbidden, HttpError } from "@/lib/platform/errors";
import { hashPassword } from "@/lib/auth/password";
import { passwordLoginEnabled } from "@/lib/config";
import { openInvitation } from "@/lib/invitations/read-invitation";

export type Joiner = { userId: string } | { username: string; password: string; display_name?: string | null };

/**
 * Spends an invitation: the signed-in user, or a new account made here, joins its workspace with
 * its role. One transaction: the guarded update makes a second use (even a concurrent one) fail,
 * and a refusal after it (already a member, username taken) leaves the link unused.
 */
export async function acceptInvitation(db: Db, token: string, joiner: Joiner) {
  if (!("userId" in joiner) && !passwordLoginEnabled()) {
    throw forbidden("This server signs people in with OpenID Connect only: sign in first, then open the link again to accept");
  }
  await openInvitation(db, token); // the reason in words, before the costly hash
  const passwordHash = "userId" in joiner ? null : await hashPassword(joiner.password);
  return db.$transaction(async (tx) => {
    const invitation = await openInvitation(tx, token);
    const user =
      "userId" in joiner
        ? await tx.user.findUniqueOrThrow({ where: { id: joiner.userId }, select: { id: true, username: true } })
        : await createAccount(tx, joiner.username, passwordHash!, joiner.display_name ?? null);
    const spent = await tx.invitation.updateMany({
      where: { id: invitation.id, acceptedAt: null, revokedAt: null },
      data: { acceptedAt: new Date(), acceptedById: user.id },
    });
    if (spent.count !== 1) throw new HttpError(410, "This invitation was already used: each link lets one person join");
    const existing = await tx.membership.findUnique({
      where: { workspaceId_userId: { workspaceId: invitation.workspaceId, userId: user.id } },
      select: { role: true },
    });
    if (existing) throw conflict(`You are already a member of ${invitation.workspace.name} (as ${existing.role}); the link stays unused`);
    await tx.membership.create({ data: { workspaceId: invitation.workspaceId, userId: user.id, role: invitation.role } });
    return {
      workspace_id: invitation.workspaceId,
      workspace_name: invitation.workspace.name,
      role: invitation.role,
      user_id: user.id,
      username: user.username,
    };
  });
}

async function createAccount(tx: Pick<Db, "user">, username: string, passwordHash: string, displayName: string | null) {
  try {
    return await tx.user.create({ data: { username, passwordHash, displayName }, select: { id: true, username: true } });
  } catch (error) {
    if ((error as { code?: string }).code === "P2002") {
      throw conflict("That username is taken: pick another, or sign in as that user and accept");
    }
    throw error;
  }
}
