import type { Db } from "@/lib/db/client";
import type { Caller } from "@/lib/auth/authenticate";
import { notFound } from "@/lib/platform/errors";
import { hashPassword } from "@/lib/auth/password";
import { serializeUser, takenName } from "@/lib/users/create-user";

/**
 * Changes a user. A new password revokes every other credential of that user (logins, API keys,
 * browser sessions, agent tokens) in the same transaction: a password is changed because it may
 * have leaked, and whoever used it may hold tokens. The caller's own login is kept.
 */
export async function updateUser(
  db: Db,
  caller: Pick<Caller, "tokenId" | "familyId">,
  userId: string,
  input: { password?: string; is_admin?: boolean; disabled?: boolean; display_name?: string | null; email?: string | null },
) {
  const existing = await db.user.findUnique({ where: { id: userId }, select: { email: true } });
  if (!existing) throw notFound("User");
  // A new address may be someone else's Slack account: the link is found again from it (docs/slack.md).
  const emailChanged = input.email !== undefined && input.email !== existing.email;
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  const row = await db.$transaction(async (tx) => {
    const updated = await tx.user
      .update({
        where: { id: userId },
        data: {
          isAdmin: input.is_admin,
          disabled: input.disabled,
          passwordHash,
          displayName: input.display_name,
          ...(emailChanged ? { email: input.email, slackUserId: null } : {}),
        },
      })
      .catch((error: unknown) => {
        throw takenName(error) ?? error;
      });
    if (passwordHash) {
      const otherLogins = caller.familyId ? { OR: [{ familyId: null }, { familyId: { not: caller.familyId } }] } : {};
      await tx.authToken.updateMany({
        where: { userId, revokedAt: null, id: { not: caller.tokenId }, ...otherLogins },
        data: { revokedAt: new Date() },
      });
      // MCP clients' OAuth grants and refresh tokens too, or a client could mint a new access token.
      await tx.oAuthRecord.deleteMany({ where: { accountId: userId } });
    }
    return updated;
  });
  return serializeUser(row);
}
