import crypto from "node:crypto";
import type { Db } from "@/lib/db/client";
import type { TokenKind } from "@/lib/generated/prisma/enums";
import { accessTokenExpireDays, refreshTokenExpireDays } from "@/lib/config";
import { unauthorized } from "@/lib/platform/errors";

// Secrets are random 32-byte strings with a readable prefix (so a leaked one is recognisable);
// only their SHA-256 is stored. SHA-256 suffices: unlike passwords they cannot be guessed.

// mcp_access tokens are made by the OAuth server (lib/oauth/), not here.
type OwnKind = Exclude<TokenKind, "mcp_access">;

const PREFIX: Record<OwnKind, string> = {
  access: "tba_",
  refresh: "tbr_",
  api_key: "tbk_",
  browser_session: "tbs_",
  agent: "tbg_",
};

export function newSecret(kind: OwnKind): string {
  return PREFIX[kind] + crypto.randomBytes(32).toString("base64url");
}

/** A runner's token (docs/runners.md): stored in `runners`, never in auth_tokens, so it works nowhere but /api/runner/…. */
export function newRunnerSecret(): string {
  return "tbn_" + crypto.randomBytes(32).toString("base64url");
}

export function hashSecret(secret: string): string {
  return crypto.createHash("sha256").update(secret).digest("hex");
}

export function daysFromNow(days: number): Date {
  return new Date(Date.now() + days * 86_400_000);
}

export interface LoginResult {
  access_token: string;
  token_type: "bearer";
  expire_days: number;
  refresh_token: string;
}

/** Issues an access token and a refresh token in one family (a login, and every refresh after it). */
export async function issueLoginTokens(db: Db, userId: string, familyId: string = crypto.randomUUID()): Promise<LoginResult> {
  const access = newSecret("access");
  const refresh = newSecret("refresh");
  const expireDays = accessTokenExpireDays();
  await db.authToken.createMany({
    data: [
      { kind: "access", userId, familyId, tokenHash: hashSecret(access), expiresAt: daysFromNow(expireDays) },
      { kind: "refresh", userId, familyId, tokenHash: hashSecret(refresh), expiresAt: daysFromNow(refreshTokenExpireDays()) },
    ],
  });
  return { access_token: access, token_type: "bearer", expire_days: expireDays, refresh_token: refresh };
}

/**
 * Rotates a refresh token. A refresh token works once; presenting one that was already used means
 * it leaked, so the whole family (every token of that login) is revoked.
 */
export async function rotateRefreshToken(db: Db, refreshToken: string): Promise<LoginResult> {
  const now = new Date();
  const token = await db.authToken.findUnique({
    where: { tokenHash: hashSecret(refreshToken) },
    include: { user: { select: { disabled: true } } },
  });
  if (!token || token.kind !== "refresh" || token.revokedAt || token.user.disabled) {
    throw unauthorized("Invalid refresh token");
  }
  if (token.expiresAt && token.expiresAt <= now) throw unauthorized("Refresh token expired");
  // Claim the token atomically: of two concurrent refreshes with one token, only one wins.
  const claimed = await db.authToken.updateMany({ where: { id: token.id, usedAt: null }, data: { usedAt: now } });
  if (claimed.count === 0) {
    await revokeFamily(db, token.familyId!);
    throw unauthorized("Refresh token already used; this login has been revoked");
  }
  return issueLoginTokens(db, token.userId, token.familyId!);
}

export async function revokeFamily(db: Db, familyId: string): Promise<void> {
  await db.authToken.updateMany({ where: { familyId, revokedAt: null }, data: { revokedAt: new Date() } });
}
