import type { Db } from "@/lib/db/client";
import type { AuthToken } from "@/lib/generated/prisma/client";
import { notFound } from "@/lib/platform/errors";
import { daysFromNow, hashSecret, newSecret } from "@/lib/auth/tokens";

export async function createApiKey(db: Db, userId: string, name: string, expiresInDays?: number | null) {
  const key = newSecret("api_key");
  const row = await db.authToken.create({
    data: {
      kind: "api_key",
      userId,
      name,
      prefix: key.slice(0, 12),
      tokenHash: hashSecret(key),
      expiresAt: expiresInDays ? daysFromNow(expiresInDays) : null,
    },
  });
  return { ...serializeApiKey(row), key };
}

export async function listApiKeys(db: Db, userId: string) {
  const rows = await db.authToken.findMany({
    where: { userId, kind: "api_key", revokedAt: null },
    orderBy: { createdAt: "desc" },
    take: 500,
  });
  return rows.map(serializeApiKey);
}

/** Deleting the row is what revokes it: the next request with that key finds nothing. */
export async function deleteApiKey(db: Db, userId: string, keyId: string) {
  const { count } = await db.authToken.deleteMany({ where: { id: keyId, userId, kind: "api_key" } });
  if (count === 0) throw notFound("API key");
}

function serializeApiKey(row: AuthToken) {
  return {
    id: row.id,
    name: row.name ?? "",
    prefix: row.prefix ?? "",
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt?.toISOString() ?? null,
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  };
}
