import { noContent, withUser } from "@/lib/api/handler";
import { revokeFamily } from "@/lib/auth/tokens";

// Revokes the credential the request came with, and with a login's access token also its refresh tokens.
export const POST = withUser({ agentAllowed: true }, async ({ db, caller }) => {
  if (caller.familyId) await revokeFamily(db, caller.familyId);
  await db.authToken.updateMany({ where: { id: caller.tokenId, revokedAt: null }, data: { revokedAt: new Date() } });
  return noContent();
});
