import crypto from "node:crypto";
import { signIn, type CookieJar } from "./browser-session";

// An MCP client's side of OAuth for API tests, in plain fetch: dynamic registration, the
// authorization request with PKCE, the person's Allow (their browser session), the code exchange.

export const REDIRECT_URI = "http://127.0.0.1:9/callback";

export interface Pkce {
  verifier: string;
  challenge: string;
}

export function pkce(): Pkce {
  const verifier = crypto.randomBytes(32).toString("base64url");
  return { verifier, challenge: crypto.createHash("sha256").update(verifier).digest("base64url") };
}

export async function registerClient(url: string, body: Record<string, unknown> = {}) {
  const response = await fetch(`${url}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "Test MCP client",
      redirect_uris: [REDIRECT_URI],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      ...body,
    }),
  });
  return { status: response.status, body: await response.json() };
}

export function authorizeUrl(url: string, clientId: string, params: Record<string, string | undefined>) {
  const query = new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: REDIRECT_URI, scope: "mcp", state: "s1" });
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) query.delete(key);
    else query.set(key, value);
  }
  return `${url}/oauth/authorize?${query}`;
}

/** Follows same-site redirects with the jar; stops at the first one leaving `url`'s origin (the client's callback). */
export async function follow(url: string, start: string, jar: CookieJar): Promise<{ location: string; status: number; text: string }> {
  let next = start;
  for (let hop = 0; hop < 10; hop++) {
    const response = await fetch(next, { redirect: "manual", headers: { cookie: jar.header() } });
    jar.take(response);
    const location = response.headers.get("location");
    if (!location) return { location: next, status: response.status, text: await response.text() };
    next = new URL(location, next).href;
    if (!next.startsWith(url) || next.includes("/oauth/consent/") || next.includes("/login"))
      return { location: next, status: response.status, text: "" };
  }
  throw new Error("too many redirects");
}

/** The person's answer on the consent page, as its script sends it; the address the browser goes to next. */
export async function decide(url: string, consentUrl: string, jar: CookieJar, decision: "allow" | "deny") {
  const response = await fetch(`${consentUrl}/decision`, {
    method: "POST",
    headers: { cookie: jar.header(), origin: url, "content-type": "application/json" },
    body: JSON.stringify({ decision }),
  });
  return { status: response.status, body: await response.json() };
}

export async function tokenRequest(url: string, form: Record<string, string>) {
  const response = await fetch(`${url}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form),
  });
  return { status: response.status, body: await response.json() };
}

/** The whole flow for a person: a code for `client_id`, and the verifier that goes with it. */
export async function authorize(
  url: string,
  person: { username: string; password: string },
  clientId: string,
  extra: Record<string, string> = {},
) {
  const jar = await signIn(url, person.username, person.password);
  const { verifier, challenge } = pkce();
  const start = authorizeUrl(url, clientId, {
    code_challenge: challenge,
    code_challenge_method: "S256",
    resource: `${url}/api/mcp`,
    ...extra,
  });
  const consent = await follow(url, start, jar);
  if (!consent.location.includes("/oauth/consent/")) throw new Error(`no consent page: ${consent.location} ${consent.text}`);
  const answer = await decide(url, consent.location, jar, "allow");
  if (answer.status !== 200) throw new Error(`decision: ${answer.status} ${JSON.stringify(answer.body)}`);
  const back = await follow(url, new URL(answer.body.location, url).href, jar);
  const code = new URL(back.location).searchParams.get("code");
  if (!code) throw new Error(`no code: ${back.location}`);
  return { code, verifier, jar };
}

export async function tokensFor(url: string, person: { username: string; password: string }) {
  const client = await registerClient(url);
  const { code, verifier } = await authorize(url, person, client.body.client_id);
  const tokens = await tokenRequest(url, {
    grant_type: "authorization_code",
    code,
    code_verifier: verifier,
    redirect_uri: REDIRECT_URI,
    client_id: client.body.client_id,
    resource: `${url}/api/mcp`,
  });
  if (tokens.status !== 200) throw new Error(`token: ${tokens.status} ${JSON.stringify(tokens.body)}`);
  return {
    clientId: client.body.client_id as string,
    ...(tokens.body as { access_token: string; refresh_token: string; expires_in: number }),
  };
}
