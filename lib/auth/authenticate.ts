import { getToken } from "next-auth/jwt";
import type { NextRequest } from "next/server";
import { statement, type Sql, type Statement } from "@/lib/db/sql";
import type { MemberRole, TokenKind } from "@/lib/generated/prisma/enums";
import { forbidden, unauthorized } from "@/lib/platform/errors";
import { hashSecret } from "@/lib/auth/tokens";
import { authSecret } from "@/lib/crypto/auth-secret";
import { acceptedAudience } from "@/lib/auth/mcp-audience";

export interface Caller {
  userId: string;
  username: string;
  isAdmin: boolean;
  tokenId: string;
  kind: TokenKind;
  familyId: string | null;
  /** Agent tokens may act only in this workspace. */
  workspaceScope: string | null;
  /** The caller's membership of the workspace asked about, if any (see authenticate's workspaceId). */
  membership: { role: MemberRole; workspaceName: string } | null;
}

const BEARER_KINDS: TokenKind[] = ["access", "api_key", "agent"];
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Who is calling: a Bearer token (access token, API key, agent token) or the next-auth session
 * cookie of a browser. Every credential is checked against the database on every request, so
 * logout, key deletion and disabling a user take effect at once.
 */
export async function authenticate(request: Request, sql: Sql, workspaceId: string | null = null): Promise<Caller> {
  return (await authenticateAndRead(request, sql, workspaceId, null)).caller;
}

/** A read of workspace data made by workspaceReadStatement, and the values of its $3, $4, … */
export interface WorkspaceRead {
  statement: Statement;
  params: unknown[];
}

/**
 * authenticate(), and in the same statement the read, run only if the credential's user is a
 * member of the workspace. `body` is the read's result: use it only once the caller has passed
 * every check that follows here (a revoked token's read is computed, then thrown away).
 */
export async function authenticateAndRead(
  request: Request,
  sql: Sql,
  workspaceId: string | null,
  read: WorkspaceRead | null,
): Promise<{ caller: Caller; body: string | null }> {
  const header = request.headers.get("authorization");
  if (header) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw unauthorized("Invalid authentication credentials");
    // An OAuth access token counts only on the endpoint it was issued for (its audience), /api/mcp.
    const audience = acceptedAudience(request);
    const kinds: TokenKind[] = audience ? [...BEARER_KINDS, "mcp_access"] : BEARER_KINDS;
    const found = await callerForSecret(sql, match[1], kinds, workspaceId, read);
    if (found.audience !== null && found.audience !== audience) throw unauthorized("Invalid or revoked token");
    return { caller: found.caller, body: found.body };
  }
  const session = await getToken({ req: request as NextRequest, secret: authSecret() }).catch(() => null);
  if (session && typeof session.sid === "string") {
    if (!SAFE_METHODS.has(request.method)) assertSameOrigin(request);
    const found = await callerForSecret(sql, session.sid, ["browser_session"], workspaceId, read);
    return { caller: found.caller, body: found.body };
  }
  throw unauthorized();
}

/**
 * A statement that authenticates and reads in one round trip. `dataSql` is one SELECT returning
 * one row with one text column; its $1 is the workspace id, $2 is taken (the credential's hash),
 * its own parameters are $3, $4, …
 */
export function workspaceReadStatement(name: string, dataSql: string): Statement {
  return statement(name, `${CALLER_CTE} SELECT caller.*, CASE WHEN caller.role IS NOT NULL THEN (${dataSql}) END AS body FROM caller`);
}

interface CredentialRow {
  id: string;
  kind: TokenKind;
  user_id: string;
  family_id: string | null;
  workspace_id: string | null;
  audience: string | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  username: string;
  is_admin: boolean;
  disabled: boolean;
  role: MemberRole | null;
  workspace_name: string | null;
  body: string | null;
}

// Every authenticated request pays for this, so the credential, its user and the membership of
// the workspace in the path ($1) come back in one prepared statement rather than four, together
// with the route's data when the route is a read (workspaceReadStatement).
const CALLER_CTE = `WITH caller AS (
  SELECT t.id, t.kind::text AS kind, t.user_id, t.family_id, t.workspace_id, t.audience, t.expires_at, t.revoked_at,
         t.last_used_at, u.username, u.is_admin, u.disabled, m.role::text AS role, w.name AS workspace_name
  FROM auth_tokens t
  JOIN users u ON u.id = t.user_id
  LEFT JOIN memberships m ON m.user_id = t.user_id AND m.workspace_id = $1
  LEFT JOIN workspaces w ON w.id = m.workspace_id
  WHERE t.token_hash = $2
)`;

const CREDENTIAL = statement("authenticate_credential", `${CALLER_CTE} SELECT caller.*, NULL::text AS body FROM caller`);

// "Last used" of an API key, and of an MCP client's access tokens (Settings → Connected apps).
const TOUCH_TOKEN = statement("authenticate_touch_api_key", "UPDATE auth_tokens SET last_used_at = $2 WHERE id = $1");

async function callerForSecret(
  sql: Sql,
  secret: string,
  kinds: TokenKind[],
  workspaceId: string | null,
  read: WorkspaceRead | null,
): Promise<{ caller: Caller; body: string | null; audience: string | null }> {
  const [token] = await sql<CredentialRow>(read?.statement ?? CREDENTIAL, [workspaceId, hashSecret(secret), ...(read?.params ?? [])]);
  const now = new Date();
  if (!token || !kinds.includes(token.kind) || token.revoked_at || token.disabled) {
    throw unauthorized("Invalid or revoked token");
  }
  if (token.expires_at && token.expires_at <= now) throw unauthorized("Token expired");
  if (
    (token.kind === "api_key" || token.kind === "mcp_access") &&
    (!token.last_used_at || now.getTime() - token.last_used_at.getTime() > 60_000)
  ) {
    // At most one write a minute per token, however often it is used.
    await sql(TOUCH_TOKEN, [token.id, now]);
  }
  const caller: Caller = {
    userId: token.user_id,
    username: token.username,
    isAdmin: token.is_admin,
    tokenId: token.id,
    kind: token.kind,
    familyId: token.family_id,
    workspaceScope: token.workspace_id,
    membership: token.role && token.workspace_name !== null ? { role: token.role, workspaceName: token.workspace_name } : null,
  };
  return { caller, body: token.body, audience: token.audience };
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
