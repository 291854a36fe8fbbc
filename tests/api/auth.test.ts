import { describe, expect, it } from "vitest";
import { admin, call, login, newUser, uniqueName } from "../helpers/api";

describe("POST /api/auth/login", () => {
  it("returns the login result for good credentials", async () => {
    const user = await newUser();
    const response = await call("POST", "/api/auth/login", { json: { username: user.username, password: user.password } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      access_token: expect.stringMatching(/^tba_/),
      token_type: "bearer",
      expire_days: 7,
      refresh_token: expect.stringMatching(/^tbr_/),
    });
  });

  it("answers a wrong password and an unknown user alike", async () => {
    const user = await newUser();
    const wrong = await call("POST", "/api/auth/login", { json: { username: user.username, password: "not-it" } });
    const unknown = await call("POST", "/api/auth/login", { json: { username: uniqueName("ghost"), password: "whatever" } });
    for (const response of [wrong, unknown]) {
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ detail: "Incorrect username or password" });
    }
  });

  it("validates the body with the documented 422 format", async () => {
    const missing = await call("POST", "/api/auth/login", { json: { username: "x" } });
    expect(missing.status).toBe(422);
    expect(missing.body.detail).toEqual([{ type: "missing", loc: ["body", "password"], msg: "Field required", input: { username: "x" } }]);
    const wrongType = await call("POST", "/api/auth/login", { json: { username: 5, password: "p" } });
    expect(wrongType.body.detail[0]).toMatchObject({ type: "string_type", loc: ["body", "username"], input: 5 });
    const malformed = await call("POST", "/api/auth/login", { body: '{"username": ', headers: { "content-type": "application/json" } });
    expect(malformed.status).toBe(422);
    expect(malformed.body.detail[0]).toMatchObject({ type: "json_invalid", msg: "JSON decode error" });
    expect(malformed.body.detail[0].loc[0]).toBe("body");
    const notObject = await call("POST", "/api/auth/login", { json: ["a"] });
    expect(notObject.body.detail[0]).toMatchObject({ type: "model_attributes_type", loc: ["body"] });
    const empty = await call("POST", "/api/auth/login", {});
    expect(empty.body.detail[0]).toMatchObject({ type: "missing", loc: ["body"] });
  });

  it("rate-limits failed attempts per username and client with 429 and Retry-After", async () => {
    const user = await newUser();
    for (let i = 0; i < 10; i++) {
      const response = await call("POST", "/api/auth/login", { json: { username: user.username, password: `bad-${i}` } });
      expect(response.status).toBe(401);
    }
    const limited = await call("POST", "/api/auth/login", { json: { username: user.username, password: user.password } });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.body.detail).toMatch(/Too many failed login attempts/);
    // The client is the socket's address: a made-up X-Forwarded-For does not make another client
    // (tests/api/login-limits.test.ts has the rest).
    const spoofed = await call("POST", "/api/auth/login", {
      json: { username: user.username, password: user.password },
      headers: { "x-forwarded-for": "203.0.113.9" },
    });
    expect(spoofed.status).toBe(429);
  });
});

describe("Bearer authentication", () => {
  it("refuses a request without credentials with 401 and WWW-Authenticate", async () => {
    const response = await call("GET", "/api/auth/me");
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ detail: "Not authenticated" });
    expect(response.headers.get("www-authenticate")).toBe("Bearer");
  });

  it("refuses malformed and unknown tokens", async () => {
    for (const header of ["Basic abc", "Bearer", "Bearer tba_nope", "tba_nope"]) {
      const response = await call("GET", "/api/auth/me", { headers: { authorization: header } });
      expect(response.status, header).toBe(401);
    }
  });

  it("accepts a valid access token and tells who is calling", async () => {
    const user = await newUser();
    const response = await call("GET", "/api/auth/me", { token: user.token });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ id: user.id, username: user.username, is_admin: false, disabled: false });
  });

  it("logout revokes the access token and its refresh token at once", async () => {
    const user = await newUser();
    expect((await call("POST", "/api/auth/logout", { token: user.token })).status).toBe(204);
    expect((await call("GET", "/api/auth/me", { token: user.token })).status).toBe(401);
    const refresh = await call("POST", "/api/auth/refresh", { json: { refresh_token: user.refreshToken } });
    expect(refresh.status).toBe(401);
  });

  it("a disabled user's tokens stop working and it cannot log in", async () => {
    const user = await newUser();
    const disable = await call("PATCH", `/api/users/${user.id}`, { token: await admin(), json: { disabled: true } });
    expect(disable.status).toBe(200);
    expect(disable.body.disabled).toBe(true);
    expect((await call("GET", "/api/auth/me", { token: user.token })).status).toBe(401);
    const again = await call("POST", "/api/auth/login", { json: { username: user.username, password: user.password } });
    expect(again.status).toBe(403);
  });
});

describe("POST /api/auth/refresh", () => {
  it("rotates: a new pair works, the used refresh token does not", async () => {
    const user = await newUser();
    const first = await call("POST", "/api/auth/refresh", { json: { refresh_token: user.refreshToken } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ token_type: "bearer", expire_days: 7 });
    expect((await call("GET", "/api/auth/me", { token: first.body.access_token })).status).toBe(200);
    const reused = await call("POST", "/api/auth/refresh", { json: { refresh_token: user.refreshToken } });
    expect(reused.status).toBe(401);
  });

  it("revokes the whole family when a rotated token is presented again", async () => {
    const user = await newUser();
    const rotated = await call("POST", "/api/auth/refresh", { json: { refresh_token: user.refreshToken } });
    await call("POST", "/api/auth/refresh", { json: { refresh_token: user.refreshToken } });
    // Both the original access token and everything issued by the rotation are now dead.
    expect((await call("GET", "/api/auth/me", { token: user.token })).status).toBe(401);
    expect((await call("GET", "/api/auth/me", { token: rotated.body.access_token })).status).toBe(401);
    const next = await call("POST", "/api/auth/refresh", { json: { refresh_token: rotated.body.refresh_token } });
    expect(next.status).toBe(401);
  });

  it("validates its body", async () => {
    const response = await call("POST", "/api/auth/refresh", { json: {} });
    expect(response.status).toBe(422);
    expect(response.body.detail[0]).toMatchObject({ type: "missing", loc: ["body", "refresh_token"] });
  });
});

describe("API keys", () => {
  it("creates a key shown once, lists it without the secret, and it works as a Bearer token", async () => {
    const user = await newUser();
    const created = await call("POST", "/api/auth/api-keys", { token: user.token, json: { name: "ci", expires_in_days: 30 } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: "ci",
      key: expect.stringMatching(/^tbk_/),
      prefix: created.body.key.slice(0, 12),
      created_at: expect.any(String),
      expires_at: expect.any(String),
      last_used_at: null,
    });
    const me = await call("GET", "/api/auth/me", { token: created.body.key });
    expect(me.status).toBe(200);
    expect(me.body.username).toBe(user.username);
    const list = await call("GET", "/api/auth/api-keys", { token: user.token });
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).not.toHaveProperty("key");
    expect(list.body[0].last_used_at).not.toBeNull();
  });

  it("a deleted key is refused at once; deleting again or another user's key is 404", async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const created = await call("POST", "/api/auth/api-keys", { token: owner.token, json: { name: "temp" } });
    expect(created.body.expires_at).toBeNull();
    const foreign = await call("DELETE", `/api/auth/api-keys/${created.body.id}`, { token: stranger.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ detail: "API key not found" });
    expect((await call("DELETE", `/api/auth/api-keys/${created.body.id}`, { token: owner.token })).status).toBe(204);
    expect((await call("GET", "/api/auth/me", { token: created.body.key })).status).toBe(401);
    expect((await call("DELETE", `/api/auth/api-keys/${created.body.id}`, { token: owner.token })).status).toBe(404);
  });

  it("validates the create body", async () => {
    const user = await newUser();
    const response = await call("POST", "/api/auth/api-keys", { token: user.token, json: { name: "", expires_in_days: 0 } });
    expect(response.status).toBe(422);
    expect(response.body.detail).toEqual([
      expect.objectContaining({ type: "string_too_short", loc: ["body", "name"], ctx: { min_length: 1 } }),
      expect.objectContaining({ type: "greater_than_equal", loc: ["body", "expires_in_days"], ctx: { ge: 1 } }),
    ]);
  });

  it("refuses key routes without credentials", async () => {
    expect((await call("GET", "/api/auth/api-keys")).status).toBe(401);
    expect((await call("DELETE", "/api/auth/api-keys/anything")).status).toBe(401);
  });
});

describe("users (admin only)", () => {
  it("lets the admin create and list users, and refuses others with 403", async () => {
    const token = await admin();
    const username = uniqueName();
    const created = await call("POST", "/api/users", { token, json: { username, password: "long-enough" } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ username, is_admin: false, disabled: false });
    const duplicate = await call("POST", "/api/users", { token, json: { username, password: "long-enough" } });
    expect(duplicate.status).toBe(409);
    const list = await call("GET", "/api/users", { token });
    expect(list.body.map((u: { username: string }) => u.username)).toContain(username);

    const member = await login(username, "long-enough");
    expect((await call("GET", "/api/users", { token: member.access_token })).status).toBe(403);
    const forbidden = await call("POST", "/api/users", {
      token: member.access_token,
      json: { username: uniqueName(), password: "long-enough" },
    });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ detail: "Only administrators may do this" });
  });

  it("validates new users", async () => {
    const response = await call("POST", "/api/users", { token: await admin(), json: { username: "has space", password: "short" } });
    expect(response.status).toBe(422);
    expect(response.body.detail.map((e: { type: string }) => e.type)).toEqual(["string_pattern_mismatch", "string_too_short"]);
  });
});

describe("changing a password", () => {
  it("revokes every other login, API key and refresh token of that user at once", async () => {
    const user = await newUser();
    const otherLogin = await login(user.username, user.password);
    const key = await call("POST", "/api/auth/api-keys", { token: user.token, json: { name: "laptop" } });
    expect(key.status).toBe(201);
    const changed = await call("PATCH", `/api/users/${user.id}`, { token: await admin(), json: { password: "a-brand-new-password" } });
    expect(changed.status).toBe(200);
    for (const token of [user.token, otherLogin.access_token, key.body.key]) {
      expect((await call("GET", "/api/auth/me", { token })).status).toBe(401);
    }
    expect((await call("POST", "/api/auth/refresh", { json: { refresh_token: user.refreshToken } })).status).toBe(401);
    expect((await call("POST", "/api/auth/login", { json: { username: user.username, password: user.password } })).status).toBe(401);
    expect((await login(user.username, "a-brand-new-password")).access_token).toMatch(/^tba_/);
  });

  it("keeps the login the change was made with, and revokes the same user's other ones", async () => {
    const self = await newUser({ isAdmin: true });
    const elsewhere = await login(self.username, self.password);
    const changed = await call("PATCH", `/api/users/${self.id}`, { token: self.token, json: { password: "my-new-admin-password" } });
    expect(changed.status).toBe(200);
    expect((await call("GET", "/api/auth/me", { token: self.token })).status).toBe(200);
    expect((await call("POST", "/api/auth/refresh", { json: { refresh_token: self.refreshToken } })).status).toBe(200);
    expect((await call("GET", "/api/auth/me", { token: elsewhere.access_token })).status).toBe(401);
  });

  it("leaves other users and other changes alone", async () => {
    const user = await newUser();
    const bystander = await newUser();
    expect((await call("PATCH", `/api/users/${user.id}`, { token: await admin(), json: { is_admin: false } })).status).toBe(200);
    expect((await call("GET", "/api/auth/me", { token: user.token })).status).toBe(200);
    expect((await call("PATCH", `/api/users/${user.id}`, { token: await admin(), json: { password: "another-password" } })).status).toBe(
      200,
    );
    expect((await call("GET", "/api/auth/me", { token: bystander.token })).status).toBe(200);
  });
});
