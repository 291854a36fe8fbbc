import { describe, expect, it } from "vitest";
import { baseUrl, call, newUser } from "../helpers/api";
import { signIn } from "../helpers/browser-session";

// The browser's path: next-auth's credentials sign-in sets a session cookie that the API accepts,
// with a same-origin check on state-changing requests.

describe("next-auth session cookie", () => {
  it("signs in, calls the API with the cookie, refuses cross-site writes, and signs out", async () => {
    const user = await newUser();
    const jar = await signIn(baseUrl(), user.username, user.password);

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
    const jar = await signIn(baseUrl(), user.username, "wrong-password").catch((error) => error);
    expect(String(jar)).toMatch(/no session cookie/);
  });
});
