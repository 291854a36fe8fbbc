import crypto from "node:crypto";
import Provider, { errors } from "oidc-provider";
import { getDb } from "@/lib/db/client";
import { authSecret } from "@/lib/crypto/auth-secret";
import { trustProxyHops } from "@/lib/config";
import { mcpResource } from "@/lib/auth/mcp-audience";
import { oauthAdapterFactory } from "@/lib/oauth/adapter";

// The OAuth 2.1 authorization server MCP clients sign in through (docs/mcp.md, "OAuth"): the
// certified `oidc-provider`, configured as the MCP authorization spec asks: dynamic client
// registration, authorization code with PKCE (S256), refresh tokens, and resource indicators that
// bind every access token to this server's /api/mcp. Its endpoints live under /oauth/ and its
// metadata at the site's root (app/.well-known/).

export const MCP_SCOPE = "mcp";
export const OAUTH_PREFIX = "/oauth";
export const ACCESS_TOKEN_SECONDS = 3600;
const REFRESH_TOKEN_SECONDS = 30 * 86_400;

const cache = globalThis as typeof globalThis & { __taskboardOAuth?: Map<string, Provider> };

/**
 * The provider for one origin. Its issuer must be the URL clients reached, so an origin without
 * PUBLIC_URL gets its own (few: localhost and 127.0.0.1); all of them share one database.
 */
export function providerFor(origin: string): Provider {
  cache.__taskboardOAuth ??= new Map();
  let provider = cache.__taskboardOAuth.get(origin);
  if (!provider) {
    if (cache.__taskboardOAuth.size >= 8) cache.__taskboardOAuth.clear();
    provider = createProvider(origin);
    cache.__taskboardOAuth.set(origin, provider);
  }
  return provider;
}

function createProvider(origin: string): Provider {
  const resource = mcpResource(origin);
  const provider = new Provider(origin, {
    adapter: oauthAdapterFactory(getDb, resource),
    jwks: { keys: [signingKey()] },
    cookies: { keys: [derived("oauth-cookies")] },
    routes: {
      authorization: `${OAUTH_PREFIX}/authorize`,
      token: `${OAUTH_PREFIX}/token`,
      registration: `${OAUTH_PREFIX}/register`,
      revocation: `${OAUTH_PREFIX}/revoke`,
      jwks: `${OAUTH_PREFIX}/jwks`,
      userinfo: `${OAUTH_PREFIX}/userinfo`,
      end_session: `${OAUTH_PREFIX}/logout`,
      introspection: `${OAUTH_PREFIX}/introspect`,
      pushed_authorization_request: `${OAUTH_PREFIX}/par`,
      backchannel_authentication: `${OAUTH_PREFIX}/backchannel`,
      code_verification: `${OAUTH_PREFIX}/device`,
      device_authorization: `${OAUTH_PREFIX}/device/auth`,
      challenge: `${OAUTH_PREFIX}/challenge`,
      credential: `${OAUTH_PREFIX}/credential`,
    },
    // `mcp` is the resource server's scope (getResourceServerInfo below); it is listed here too
    // because clients register with it (RFC 7591 `scope`) and the provider checks registrations
    // against this list, so the consent grants it both ways (lib/oauth/consent.ts).
    scopes: ["openid", "offline_access", MCP_SCOPE],
    responseTypes: ["code"],
    claims: { openid: ["sub"], profile: ["preferred_username"] },
    clientDefaults: {
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      id_token_signed_response_alg: "EdDSA",
    },
    enabledJWA: { idTokenSigningAlgValues: ["EdDSA"] },
    // Every client must use PKCE, confidential or not (OAuth 2.1); S256 is the only method offered.
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      introspection: { enabled: false },
      resourceIndicators: {
        enabled: true,
        // A client that names no resource still gets a token for the MCP endpoint, the only one here.
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, indicator: string) => {
          if (indicator !== resource) throw new errors.InvalidTarget(`the only resource here is ${resource}`);
          return { scope: MCP_SCOPE, audience: resource, accessTokenTTL: ACCESS_TOKEN_SECONDS, accessTokenFormat: "opaque" };
        },
      },
    },
    // A refresh token for every code exchange by a client registered for them; each use rotates it.
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
      client.grantTypeAllowed("refresh_token"),
    rotateRefreshToken: () => true,
    expiresWithSession: () => false,
    ttl: {
      AccessToken: ACCESS_TOKEN_SECONDS,
      AuthorizationCode: 60,
      Interaction: 3600,
      Session: 14 * 86_400,
      Grant: REFRESH_TOKEN_SECONDS,
      RefreshToken: REFRESH_TOKEN_SECONDS,
      IdToken: 3600,
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `${OAUTH_PREFIX}/consent/${interaction.uid}` },
    findAccount: async (_ctx: unknown, id: string) => {
      const user = await (await getDb()).user.findUnique({ where: { id }, select: { id: true, username: true, disabled: true } });
      if (!user || user.disabled) return undefined;
      return { accountId: user.id, claims: async () => ({ sub: user.id, preferred_username: user.username }) };
    },
    renderError: async (ctx: { type: string; body: string }, out: Record<string, string>) => {
      ctx.type = "text/html";
      ctx.body = errorPage(out);
    },
  });
  // Behind a proxy (trustProxyHops), X-Forwarded-Proto says whether the client used https.
  provider.proxy = trustProxyHops() > 0;
  return provider;
}

function derived(purpose: string): string {
  return crypto.createHmac("sha256", authSecret()).update(purpose).digest("base64url");
}

// An Ed25519 key derived from AUTH_SECRET: every instance and every restart signs ID tokens with
// the same key, and nothing more has to be configured or stored.
function signingKey() {
  const seed = crypto.createHmac("sha256", authSecret()).update("oauth-id-token-key").digest();
  const der = Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), seed]);
  const jwk = crypto.createPrivateKey({ key: der, format: "der", type: "pkcs8" }).export({ format: "jwk" });
  return { ...jwk, alg: "EdDSA", use: "sig", kid: derived("oauth-kid").slice(0, 16) };
}

function errorPage(out: Record<string, string>): string {
  const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><meta charset="utf-8"><title>Sign-in failed</title>
<main style="font-family:system-ui;max-width:32rem;margin:4rem auto;padding:0 1.5rem">
<h1 style="font-size:1.25rem">The application's sign-in request was refused</h1>
<p>${escape(out.error ?? "error")}: ${escape(out.error_description ?? "")}</p>
<p><a href="/">Back to the board</a></p></main>`;
}
