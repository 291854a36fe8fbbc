import { describe, expect, it } from "vitest";
import { baseUrl, call, newUser } from "../helpers/api";

// The browser's path: next-auth's credentials sign-in sets a session cookie that the API accepts,
// with a same-origin check on state-changing requests.

describe("next-auth session cookie", () => {
  it("signs in, calls the API with the cookie, refuses cross-site writes, and signs out", async () => {
    const user = await newUser();
    const jar = await signIn(user.username, user.password);

    const me = await call("GET", "/api/auth/me", { headers: { cookie: jar.header() } });
    expect(me.status).toBe(200);
    expect(me.body.username).toBe(user.username);

    const noOrigin = await call("POST", "/api/workspaces", { headers: { cookie: jar.header() }, json: { name: "csrf" } });
    expect(noOrigin.status).toBe(403);
    const evil = await call("POST", "/api/workspaces", {
      headers: { cookie: jar.header(), origin: "http://evil.example" },
      json: { name: "csrf" },
    });
    expect(evil.status).toBe(403);
    const sameOrigin = await call("POST", "/api/workspaces", {
      headers: { cookie: jar.header(), origin: baseUrl() },
      json: { name: "ok" },
    });
    expect(sameOrigin.status).toBe(201);
    expect((await call("GET", "/api/workspaces", { token: user.token })).body).toHaveLength(1);

    const csrf = await fetch(`${baseUrl()}/api/auth/csrf`, { headers: { cookie: jar.header() } }).then((r) => r.json());
    const signOut = await fetch(`${baseUrl()}/api/auth/signout`, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken: csrf.csrfToken, json: "true" }),
    });
    expect(signOut.status).toBeLessThan(400);
    // The old cookie is dead even if a client keeps sending it.
    const after = await call("GET", "/api/auth/me", { headers: { cookie: jar.header() } });
    expect(after.status).toBe(401);
  });

  it("refuses a wrong password at the sign-in form", async () => {
    const user = await newUser();
    const jar = await signIn(user.username, "wrong-password").catch((error) => error);
    expect(String(jar)).toMatch(/no session cookie/);
  });
});

async function signIn(username: string, password: string) {
  const jar = new CookieJar();
  const csrfResponse = await fetch(`${baseUrl()}/api/auth/csrf`);
  jar.take(csrfResponse);
  const { csrfToken } = await csrfResponse.json();
  const response = await fetch(`${baseUrl()}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, username, password, json: "true" }),
  });
  jar.take(response);
  if (!jar.has("next-auth.session-token")) throw new Error("no session cookie after sign-in");
  return jar;
}

class CookieJar {
  private cookies = new Map<string, string>();
  take(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const index = pair.indexOf("=");
      this.cookies.set(pair.slice(0, index), pair.slice(index + 1));
    }
  }
  has(name: string) {
    return Boolean(this.cookies.get(name));
  }
  header() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}
