import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineServer, newStore, type EngineServer, type Store } from "../helpers/engine";
import { startOidcProvider, type TestOidcProvider } from "../fixtures/oidc-provider";

// Single sign-on against a real OpenID provider (oidc-provider) in this process: the whole
// authorization-code flow over HTTP — the app's sign-in redirect with PKCE, state and nonce, the
// provider's login form, the callback — on two servers: one with password login on, one with it off.

const ACCOUNTS = {
  alice: { email: "alice@corp.example", email_verified: true, name: "Alice", preferred_username: "alice" },
  bob: { email: "bob@corp.example", email_verified: true, preferred_username: "bob" },
  unverified: { email: "mallory@corp.example", email_verified: false, preferred_username: "mallory" },
  outsider: { email: "eve@evil.example", email_verified: true, preferred_username: "eve" },
  wronggroup: { email: "gil@elsewhere.example", email_verified: true, preferred_username: "gil", groups: ["guests", "staff"] },
  grouped: { email: "gary@elsewhere.example", email_verified: true, preferred_username: "gary", groups: ["staff", "taskboard-users"] },
  // Same name as the password administrator: must get a user of its own, never the admin's.
  namesake: { email: "admin@corp.example", email_verified: true, preferred_username: "admin" },
  carol: { email: "carol@corp.example", email_verified: true, preferred_username: "carol" },
  dave: { email: "dave@corp.example", email_verified: true, preferred_username: "dave" },
};
type Account = keyof typeof ACCOUNTS;

const ADMIN = { username: "admin", password: "engine-admin-password" };
let provider: TestOidcProvider;
let stores: Store[] = [];
let withPassword: EngineServer;
let ssoOnly: EngineServer;
let notSetUp: EngineServer;
let adminToken: string;

beforeAll(async () => {
  provider = await startOidcProvider(ACCOUNTS);
  const sso = {
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: provider.clientId,
    OIDC_CLIENT_SECRET: provider.clientSecret,
    OIDC_NAME: "Test IdP",
    OIDC_SCOPES: "openid email profile groups",
    OIDC_ALLOWED_DOMAINS: "corp.example, Other.example",
    OIDC_ALLOWED_GROUPS: "taskboard-users",
    // No agent runs here: no runner child to start on any of the three servers.
    RUNNER_EMBEDDED: "false",
  };
  stores = [await newStore("sso"), await newStore("sso-only"), await newStore("sso-no-setup")];
  const noAdmin = { ADMIN_USERNAME: "", ADMIN_PASSWORD: "" };
  [withPassword, ssoOnly, notSetUp] = await Promise.all([
    engineServer(stores[0], sso, "sso"),
    engineServer(stores[1], { ...sso, ...noAdmin, PASSWORD_LOGIN: "false" }, "sso-only"),
    engineServer(stores[2], { ...sso, ...noAdmin }, "sso-no-setup"),
  ]);
  provider.register(...[withPassword, ssoOnly, notSetUp].map((server) => `${server.url}/api/auth/callback/oidc`));
  const login = await withPassword.call("POST", "/api/auth/login", { json: ADMIN });
  adminToken = login.body.access_token;
}, 400_000);

afterAll(async () => {
  await Promise.all([withPassword?.stop(), ssoOnly?.stop(), notSetUp?.stop()]);
  await provider?.stop();
  for (const store of stores) await store.drop();
});

describe("sign-in with an OpenID Connect provider", () => {
  it("runs the authorization-code flow with PKCE, state and nonce and ends in an ordinary browser session", async () => {
    const result = await ssoSignIn(withPassword.url, "alice");
    const authorize = new URL(result.authorizeUrl);
    expect(authorize.origin).toBe(provider.issuer);
    expect(authorize.searchParams.get("response_type")).toBe("code");
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("code_challenge")).toBeTruthy();
    expect(authorize.searchParams.get("state")).toBeTruthy();
    expect(authorize.searchParams.get("nonce")).toBeTruthy();
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${withPassword.url}/api/auth/callback/oidc`);
    expect(result.landed).toBe(`${withPassword.url}/`);

    const me = await withCookie(withPassword, result.cookie, "GET", "/api/auth/me");
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ username: "alice", is_admin: false, disabled: false });
    // The same session the password form makes: state changes from this origin work with the cookie.
    const workspace = await withCookie(withPassword, result.cookie, "POST", "/api/workspaces", { name: "made by SSO" });
    expect(workspace.status).toBe(201);
  });

  it("signs an existing identity in again as the same user, without a second user", async () => {
    const first = await ssoSignIn(withPassword.url, "carol");
    const again = await ssoSignIn(withPassword.url, "carol");
    const one = await withCookie(withPassword, first.cookie, "GET", "/api/auth/me");
    const two = await withCookie(withPassword, again.cookie, "GET", "/api/auth/me");
    expect(two.body.id).toBe(one.body.id);
    expect(await usernames()).toEqual(expect.arrayContaining(["carol"]));
    expect((await usernames()).filter((name) => name.startsWith("carol"))).toEqual(["carol"]);
  });

  it("refuses a new identity whose email domain is not allowed, in words on the login page, and creates no user", async () => {
    const result = await ssoSignIn(withPassword.url, "outsider");
    expect(result.landed).toBe(`${withPassword.url}/login?error=SsoNotAllowed`);
    expect(result.cookie).not.toMatch(/session-token/);
    expect(await usernames()).not.toContain("eve");
    const page = await fetch(result.landed).then((response) => response.text());
    expect(page).toContain("Your Test IdP account is not allowed on this board");
  });

  it("refuses an allowed domain whose email is not verified", async () => {
    const result = await ssoSignIn(withPassword.url, "unverified");
    expect(result.landed).toBe(`${withPassword.url}/login?error=SsoNotAllowed`);
    expect(await usernames()).not.toContain("mallory");
  });

  it("refuses a new identity none of whose groups is allowed", async () => {
    const result = await ssoSignIn(withPassword.url, "wronggroup");
    expect(result.landed).toBe(`${withPassword.url}/login?error=SsoNotAllowed`);
    expect(await usernames()).not.toContain("gil");
  });

  it("lets in by an allowed group when the email domain is not allowed", async () => {
    const gary = await ssoSignIn(withPassword.url, "grouped");
    expect(gary.landed).toBe(`${withPassword.url}/`);
    expect((await withCookie(withPassword, gary.cookie, "GET", "/api/auth/me")).body.username).toBe("gary");
  });

  it("never links an identity to an existing password user by name", async () => {
    const result = await ssoSignIn(withPassword.url, "namesake");
    const me = await withCookie(withPassword, result.cookie, "GET", "/api/auth/me");
    expect(me.body).toMatchObject({ username: "admin-2", is_admin: false });
  });

  it("refuses a disabled user and ends the sessions they had", async () => {
    const first = await ssoSignIn(withPassword.url, "bob");
    const me = await withCookie(withPassword, first.cookie, "GET", "/api/auth/me");
    const disable = await withPassword.call("PATCH", `/api/users/${me.body.id}`, { token: adminToken, json: { disabled: true } });
    expect(disable.status).toBe(200);
    expect((await withCookie(withPassword, first.cookie, "GET", "/api/auth/me")).status).toBe(401);
    const again = await ssoSignIn(withPassword.url, "bob");
    expect(again.landed).toBe(`${withPassword.url}/login?error=SsoDisabled`);
    expect(again.cookie).not.toMatch(/session-token/);
  });

  it("refuses everyone while setup (by password) is not done, so SSO cannot jump ahead of the setup page", async () => {
    const result = await ssoSignIn(notSetUp.url, "alice");
    expect(result.landed).toBe(`${notSetUp.url}/login?error=SsoNotSetUp`);
    expect((await notSetUp.call("GET", "/api/setup")).body.needs_setup).toBe(true);
  });

  it("shows the SSO button beside the password form when both are on", async () => {
    const page = await fetch(`${withPassword.url}/login`).then((response) => response.text());
    expect(page).toContain("Sign in with Test IdP");
    expect(page).toContain('type="password"');
  });
});

describe("password login turned off", () => {
  it("makes the first allowed SSO user the administrator; the next one is not", async () => {
    const page = await fetch(`${ssoOnly.url}/login`, { redirect: "manual" });
    expect(page.status).toBe(200); // no setup page: it is not needed
    const html = await page.text();
    expect(html).toContain("Sign in with Test IdP");
    expect(html).not.toContain('type="password"');
    expect(html).toContain("becomes its administrator");
    for (const path of ["/", "/setup"]) {
      const redirected = await fetch(`${ssoOnly.url}${path}`, { redirect: "manual" });
      expect(new URL(redirected.headers.get("location") ?? "", ssoOnly.url).pathname).toBe("/login");
    }

    const setup = await ssoOnly.call("POST", "/api/setup", { json: { username: "root", password: "root-password" } });
    expect(setup.status).toBe(403);
    expect(setup.body.detail).toMatch(/Password login is turned off/);

    const first = await ssoSignIn(ssoOnly.url, "dave");
    expect((await withCookie(ssoOnly, first.cookie, "GET", "/api/auth/me")).body).toMatchObject({ username: "dave", is_admin: true });
    const second = await ssoSignIn(ssoOnly.url, "alice");
    expect((await withCookie(ssoOnly, second.cookie, "GET", "/api/auth/me")).body).toMatchObject({ username: "alice", is_admin: false });
  });

  it("answers POST /api/auth/login with 403 in words, while API keys keep working", async () => {
    const login = await ssoOnly.call("POST", "/api/auth/login", { json: { username: "dave", password: "whatever-password" } });
    expect(login.status).toBe(403);
    expect(login.body.detail).toMatch(/Password login is turned off/);

    const session = await ssoSignIn(ssoOnly.url, "dave");
    const key = await withCookie(ssoOnly, session.cookie, "POST", "/api/auth/api-keys", { name: "script" });
    expect(key.status).toBe(201);
    const me = await ssoOnly.call("GET", "/api/auth/me", { token: key.body.key });
    expect(me.status).toBe(200);
    expect(me.body.username).toBe("dave");
  });

  it("has no password provider for the browser form either", async () => {
    const jar = new CookieJar();
    const csrf = await jar.fetch(`${ssoOnly.url}/api/auth/csrf`);
    const { csrfToken } = await csrf.json();
    await jar.fetch(`${ssoOnly.url}/api/auth/callback/credentials`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, username: "dave", password: "whatever-password", json: "true" }),
    });
    expect(jar.header()).not.toMatch(/session-token/);
  });
});

/** Every username on the password server, as its administrator sees them. */
async function usernames(): Promise<string[]> {
  const users = await withPassword.call("GET", "/api/users", { token: adminToken });
  expect(users.status).toBe(200);
  return (users.body as { username: string }[]).map((user) => user.username);
}

async function withCookie(server: EngineServer, cookie: string, method: string, path: string, json?: unknown) {
  const headers: Record<string, string> = { cookie, origin: server.url };
  if (json !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(server.url + path, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/**
 * A person signing in with the provider, as a browser would: the app's sign-in POST, every
 * redirect followed by hand (one cookie jar per site), the provider's login form filled in.
 * Ends at the first page of the app outside /api/auth: `landed`, with the app's cookies.
 */
async function ssoSignIn(app: string, account: Account) {
  const appJar = new CookieJar();
  const providerJar = new CookieJar();
  const jarFor = (url: string) => (new URL(url).origin === app ? appJar : providerJar);
  const { csrfToken } = await (await appJar.fetch(`${app}/api/auth/csrf`)).json();
  const start = await appJar.fetch(`${app}/api/auth/signin/oidc`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, callbackUrl: `${app}/` }),
  });
  const authorizeUrl = new URL(start.headers.get("location") ?? "", app).href;
  let url = authorizeUrl;
  for (let hop = 0; hop < 20; hop++) {
    let response = await jarFor(url).fetch(url);
    if (response.status === 200 && new URL(url).pathname.startsWith("/interaction/")) {
      response = await providerJar.fetch(`${url}/login`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ login: account }),
      });
    }
    const location = response.headers.get("location");
    if (response.status < 300 || response.status >= 400 || !location) {
      throw new Error(`unexpected ${response.status} at ${url}: ${await response.text()}`);
    }
    url = new URL(location, url).href;
    if (url.startsWith(app) && !url.startsWith(`${app}/api/auth/`)) return { authorizeUrl, landed: url, cookie: appJar.header() };
  }
  throw new Error("too many redirects");
}

class CookieJar {
  private cookies = new Map<string, string>();
  async fetch(url: string, init: RequestInit = {}) {
    const response = await fetch(url, { ...init, redirect: "manual", headers: { ...(init.headers as object), cookie: this.header() } });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const index = pair.indexOf("=");
      const value = pair.slice(index + 1);
      if (value && !/max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.set(pair.slice(0, index), value);
      else this.cookies.delete(pair.slice(0, index));
    }
    return response;
  }
  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}
