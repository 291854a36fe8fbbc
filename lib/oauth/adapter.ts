import type { Db } from "@/lib/db/client";
import type { Prisma } from "@/lib/generated/prisma/client";
import { hashSecret } from "@/lib/auth/tokens";

// oidc-provider's storage (its "adapter" interface) in the app's database, so registered clients,
// grants and tokens survive a restart and work the same on PGlite and PostgreSQL. Ids are stored
// hashed (a code or token's id is the secret itself). An access token issued for the MCP endpoint
// is also written to auth_tokens (kind mcp_access, its audience beside it), so the one statement
// that authenticates every request (lib/auth/authenticate.ts) resolves it to its user, and
// revoking it, or its grant, or disabling the user, takes effect on the next request.

export interface AdapterPayload {
  accountId?: string;
  aud?: string | string[];
  grantId?: string;
  uid?: string;
  consumed?: number;
  [key: string]: unknown;
}

const GRANTABLE = new Set(["AccessToken", "AuthorizationCode", "RefreshToken", "DeviceCode", "BackchannelAuthenticationRequest"]);

export function oauthAdapterFactory(db: () => Promise<Db>, mcpAudience: string) {
  return class PrismaOAuthAdapter {
    constructor(private readonly model: string) {}

    private key(id: string) {
      return `${this.model}:${hashSecret(id)}`;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number) {
      const expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000) : null;
      const data = {
        model: this.model,
        payload: payload as Prisma.InputJsonValue,
        grantId: GRANTABLE.has(this.model) ? (payload.grantId ?? null) : null,
        accountId: payload.accountId ?? null,
        uid: payload.uid ?? null,
        expiresAt,
      };
      const client = await db();
      await client.oAuthRecord.upsert({ where: { key: this.key(id) }, create: { key: this.key(id), ...data }, update: data });
      if (this.model === "AccessToken" && payload.accountId && audiences(payload).includes(mcpAudience)) {
        await client.authToken.upsert({
          where: { tokenHash: hashSecret(id) },
          create: {
            kind: "mcp_access",
            userId: payload.accountId,
            tokenHash: hashSecret(id),
            familyId: payload.grantId ?? null,
            name: typeof payload.clientId === "string" ? payload.clientId : null,
            audience: mcpAudience,
            expiresAt,
          },
          update: { expiresAt },
        });
      }
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      const row = await (await db()).oAuthRecord.findUnique({ where: { key: this.key(id) } });
      if (!row || (row.expiresAt && row.expiresAt <= new Date())) return undefined;
      return row.payload as AdapterPayload;
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      const row = await (await db()).oAuthRecord.findFirst({ where: { model: this.model, uid } });
      if (!row || (row.expiresAt && row.expiresAt <= new Date())) return undefined;
      return row.payload as AdapterPayload;
    }

    async findByUserCode(): Promise<undefined> {
      return undefined; // the device flow is not enabled
    }

    async consume(id: string) {
      const client = await db();
      const row = await client.oAuthRecord.findUnique({ where: { key: this.key(id) } });
      if (!row) return;
      const payload = { ...(row.payload as AdapterPayload), consumed: Math.floor(Date.now() / 1000) };
      await client.oAuthRecord.update({ where: { key: row.key }, data: { payload } });
    }

    async destroy(id: string) {
      const client = await db();
      await client.oAuthRecord.deleteMany({ where: { key: this.key(id) } });
      if (this.model === "AccessToken") {
        await client.authToken.updateMany({ where: { tokenHash: hashSecret(id), revokedAt: null }, data: { revokedAt: new Date() } });
      }
    }

    async revokeByGrantId(grantId: string) {
      const client = await db();
      await client.oAuthRecord.deleteMany({ where: { grantId } });
      await client.authToken.updateMany({
        where: { kind: "mcp_access", familyId: grantId, revokedAt: null },
        data: { revokedAt: new Date() },
      });
    }
  };
}

function audiences(payload: AdapterPayload): string[] {
  if (Array.isArray(payload.aud)) return payload.aud;
  return typeof payload.aud === "string" ? [payload.aud] : [];
}
