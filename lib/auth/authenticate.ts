import { getToken } from "next-auth/jwt";
import type { NextRequest } from "next/server";
import type { Db } from "@/lib/db/client";
import type { TokenKind } from "@/lib/generated/prisma/enums";
import { forbidden, unauthorized } from "@/lib/api/errors";
import { hashSecret } from "@/lib/auth/tokens";
import { authSecret } from "@/lib/auth/secret";

export interface Caller {
  userId: string;
  username: string;
  isAdmin: boolean;
  tokenId: string;
  kind: TokenKind;
  familyId: string | null;
  /** Agent tokens may act only in this workspace. */
  workspaceScope: string | null;
}

const BEARER_KINDS: TokenKind[] = ["access", "api_key", "agent"];
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Who is calling: a Bearer token (access token, API key, agent token) or the next-auth session
 * cookie of a browser. Every credential is checked against the database on every request, so
 * logout, key deletion and disabling a user take effect at once.
 */
export async function authenticate(request: Request, db: Db): Promise<Caller> {
  const header = request.headers.get("authorization");
  if (header) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw unauthorized("Invalid authentication credentials");
    return callerForSecret(db, match[1], BEARER_KINDS);
  }
  const session = await getToken({ req: request as NextRequest, secret: authSecret() }).catch(() => null);
  if (session && typeof session.sid === "string") {
    if (!SAFE_METHODS.has(request.method)) assertSameOrigin(request);
    return callerForSecret(db, session.sid, ["browser_session"]);
  }
  throw unauthorized();
}

async function callerForSecret(db: Db, secret: string, kinds: TokenKind[]): Promise<Caller> {
  const token = await db.authToken.findUnique({
    where: { tokenHash: hashSecret(secret) },
    include: { user: { select: { username: true, isAdmin: true, disabled: true } } },
  });
  const now = new Date();
  if (!token || !kinds.includes(token.kind) || token.revokedAt || token.user.disabled) {
    throw unauthorized("Invalid or revoked token");
  }
  if (token.expiresAt && token.expiresAt <= now) throw unauthorized("Token expired");
  if (token.kind === "api_key" && (!token.lastUsedAt || now.getTime() - token.lastUsedAt.getTime() > 60_000)) {
    // At most one write a minute per key, however often it is used.
    await db.authToken.update({ where: { id: token.id }, data: { lastUsedAt: now } });
  }
  return {
    userId: token.userId,
    username: token.user.username,
    isAdmin: token.user.isAdmin,
    tokenId: token.id,
    kind: token.kind,
    familyId: token.familyId,
    workspaceScope: token.workspaceId,
  };
}

// A cookie rides along on cross-site requests; Bearer tokens do not. So state changes made with
// the cookie must prove they come from this origin.
function assertSameOrigin(request: Request) {
  const origin = request.headers.get("origin");
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  if (origin && origin !== "null") {
    if (host && safeHost(origin) === host) return;
  } else if (request.headers.get("sec-fetch-site") === "same-origin") {
    return;
  }
  throw forbidden("Cross-site request refused: send an Origin header of this site, or use a Bearer token");
}

function safeHost(url: string): string | null {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}
