import type { Db } from "@/lib/db/client";
import { grantsByClient } from "@/lib/oauth/list-connected-clients";

// Revoke what a person allowed one client: its grants, and with them every code, refresh token and
// access token issued under them (the next MCP call answers 401; the client must ask again).
// Other people's grants to the same client are theirs and stay.

/** False when the person has allowed this client nothing. */
export async function disconnectClient(db: Db, userId: string, clientId: string): Promise<boolean> {
  const entry = (await grantsByClient(db, userId)).get(clientId);
  if (!entry) return false;
  await db.$transaction(async (tx) => {
    await tx.oAuthRecord.deleteMany({ where: { OR: [{ key: { in: entry.keys } }, { grantId: { in: entry.grantIds } }] } });
    await tx.authToken.updateMany({
      where: { kind: "mcp_access", userId, familyId: { in: entry.grantIds }, revokedAt: null },
      data: { revokedAt: new Date() },
    });
  });
  return true;
}
