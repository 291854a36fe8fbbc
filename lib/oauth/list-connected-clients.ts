import type { Db } from "@/lib/db/client";
import { hashSecret } from "@/lib/auth/tokens";
import type { ConnectedClient } from "@/lib/oauth/schemas";
import { redirectHost } from "@/lib/oauth/redirect-host";

// The clients a person has allowed, from oidc-provider's records (lib/oauth/adapter.ts): one per
// client however many grants it holds, newest first. Three reads, whatever the number of clients.

interface GrantPayload {
  clientId?: string;
  jti?: string;
}
interface ClientPayload {
  client_id?: string;
  client_name?: string;
  redirect_uris?: string[];
}

/** The person's live grants, by client (a grant's id is its payload's `jti`). */
export async function grantsByClient(db: Db, userId: string) {
  const grants = await db.oAuthRecord.findMany({
    where: { model: "Grant", accountId: userId, OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] },
    select: { key: true, payload: true, createdAt: true },
    orderBy: { createdAt: "asc" },
  });
  const byClient = new Map<string, { grantIds: string[]; keys: string[]; connectedAt: Date }>();
  for (const grant of grants) {
    const payload = grant.payload as GrantPayload;
    if (!payload.clientId || !payload.jti) continue;
    const entry = byClient.get(payload.clientId) ?? { grantIds: [], keys: [], connectedAt: grant.createdAt };
    entry.grantIds.push(payload.jti);
    entry.keys.push(grant.key);
    byClient.set(payload.clientId, entry);
  }
  return byClient;
}

export async function listConnectedClients(db: Db, userId: string): Promise<ConnectedClient[]> {
  const byClient = await grantsByClient(db, userId);
  if (byClient.size === 0) return [];
  const clientIds = [...byClient.keys()];
  const [clients, used] = await Promise.all([
    db.oAuthRecord.findMany({
      where: { key: { in: clientIds.map((id) => `Client:${hashSecret(id)}`) } },
      select: { payload: true },
    }),
    db.authToken.groupBy({
      by: ["familyId"],
      where: { kind: "mcp_access", userId, familyId: { in: [...byClient.values()].flatMap((entry) => entry.grantIds) } },
      _max: { lastUsedAt: true },
    }),
  ]);
  const registered = new Map(clients.map((row) => [(row.payload as ClientPayload).client_id, row.payload as ClientPayload]));
  const lastUsed = new Map(used.map((row) => [row.familyId, row._max.lastUsedAt]));
  return clientIds
    .map((clientId) => {
      const entry = byClient.get(clientId)!;
      const client = registered.get(clientId);
      const uses = entry.grantIds.map((id) => lastUsed.get(id)).filter((at): at is Date => Boolean(at));
      return {
        client_id: clientId,
        name: client?.client_name || clientId,
        redirect_hosts: [...new Set((client?.redirect_uris ?? []).map(redirectHost))],
        connected_at: entry.connectedAt.toISOString(),
        last_used_at: uses.length ? new Date(Math.max(...uses.map(Number))).toISOString() : null,
      };
    })
    .sort((a, b) => b.connected_at.localeCompare(a.connected_at));
}
