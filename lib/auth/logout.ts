import type { Db } from "@/lib/db/client";
import { revokeFamily } from "@/lib/auth/tokens";

/** Revokes the credential the request came with, and with a login's access token also its refresh tokens. */
export async function logout(db: Db, caller: { tokenId: string; familyId?: string | null }) {
  if (caller.familyId) await revokeFamily(db, caller.familyId);
  await db.authToken.updateMany({ where: { id: caller.tokenId, revokedAt: null }, data: { revokedAt: new Date() } });
}
