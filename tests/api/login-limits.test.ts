import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineServer, newStore, type EngineServer, type Store } from "../helpers/engine";

// Login limits (docs/api.md, "Login limits") on servers of their own, so the counts start from zero.
// Every request here comes from 127.0.0.1. Other clients are shown the only honest way a test on
// one machine can: the server is told it sits behind one proxy (TRUST_PROXY=1), and the test plays
// that proxy, naming the client in X-Forwarded-For the way a proxy appends it.

const ADMIN = { username: "admin", password: "engine-admin-password" };
// No agent runs here: no runner child to start on either server.
const NO_RUNNER = { RUNNER_EMBEDDED: "false" };

let store: Store;
let direct: EngineServer;
let proxied: EngineServer;
let proxiedStore: Store;

beforeAll(async () => {
  store = await newStore("login-direct");
  proxiedStore = await newStore("login-proxied");
  [direct, proxied] = await Promise.all([
    engineServer(store, { ...NO_RUNNER, LOGIN_RATE_LIMIT_PER_MINUTE: "10" }, "login-direct"),
    engineServer(
      proxiedStore,
      { ...NO_RUNNER, TRUST_PROXY: "1", LOGIN_RATE_LIMIT_PER_MINUTE: "5", LOGIN_RATE_LIMIT_PER_USERNAME_PER_HOUR: "8" },
      "login-proxied",
    ),
  ]);
}, 300_000);

afterAll(async () => {
  await Promise.all([direct?.stop(), proxied?.stop()]);
  await Promise.all([store?.drop(), proxiedStore?.drop()]);
});

async function newUser(server: EngineServer, username: string) {
  const login = await server.call("POST", "/api/auth/login", { json: ADMIN });
  const password = `${username}-password`;
  const created = await server.call("POST", "/api/users", { token: login.body.access_token, json: { username, password } });
  expect(created.status).toBe(201);
  return { username, password };
}

async function attempt(server: EngineServer, username: string, password: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ username, password }),
  });
  await response.arrayBuffer();
  return response;
}

const statuses = (responses: Response[]) => responses.map((r) => r.status);
const count = (list: number[], status: number) => list.filter((s) => s === status).length;

describe("without a trusted proxy", () => {
  it("ignores X-Forwarded-For: rotating it gives no more guesses", async () => {
    const user = await newUser(direct, "rotator");
    const results: number[] = [];
    for (let i = 0; i < 14; i++) {
      results.push((await attempt(direct, user.username, `wrong-${i}`, { "x-forwarded-for": `198.51.100.${i + 1}` })).status);
    }
    expect(results).toEqual([...Array(10).fill(401), ...Array(4).fill(429)]);
  });

  it("counts parallel attempts before any password is checked", async () => {
    const user = await newUser(direct, "parallel");
    const results = statuses(await Promise.all(Array.from({ length: 40 }, (_, i) => attempt(direct, user.username, `wrong-${i}`))));
    expect(count(results, 401)).toBe(10);
    expect(count(results, 429)).toBe(30);
  });

  it("answers a 429 with Retry-After and the documented body", async () => {
    const user = await newUser(direct, "patient");
    for (let i = 0; i < 10; i++) await attempt(direct, user.username, "wrong");
    const limited = await direct.call("POST", "/api/auth/login", { json: user });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.body.detail).toMatch(/^Too many failed login attempts; try again in \d+ s$/);
  });

  it("refuses over-long usernames and passwords with 422 before hashing", async () => {
    const longName = await direct.call("POST", "/api/auth/login", { json: { username: "u".repeat(65), password: "x" } });
    expect(longName.status).toBe(422);
    expect(longName.body.detail[0]).toMatchObject({ type: "string_too_long", loc: ["body", "username"] });
    const longPassword = await direct.call("POST", "/api/auth/login", { json: { username: "admin", password: "p".repeat(257) } });
    expect(longPassword.status).toBe(422);
    expect(longPassword.body.detail[0]).toMatchObject({ type: "string_too_long", loc: ["body", "password"] });
    // At the limits it is an ordinary wrong login.
    const atLimit = await direct.call("POST", "/api/auth/login", { json: { username: "u".repeat(64), password: "p".repeat(256) } });
    expect(atLimit.status).toBe(401);
  });
});

describe("behind a trusted proxy (TRUST_PROXY=1)", () => {
  it("counts per client as the proxy reports it, whatever the client wrote before that", async () => {
    const user = await newUser(proxied, "per-client");
    const results: number[] = [];
    for (let i = 0; i < 6; i++) {
      // The client made up the first entry; the proxy appended the address it saw.
      results.push((await attempt(proxied, user.username, "wrong", { "x-forwarded-for": `10.0.0.${i}, 203.0.113.50` })).status);
    }
    expect(results).toEqual([401, 401, 401, 401, 401, 429]);
    // Another client is not held back by that one.
    expect((await attempt(proxied, user.username, user.password, { "x-forwarded-for": "203.0.113.51" })).status).toBe(200);
  });

  it("slows guessing one username from many addresses, but not its owner's known devices", async () => {
    const user = await newUser(proxied, "many-addresses");
    const home = { "x-forwarded-for": "198.51.100.7" };
    const firstLogin = await attempt(proxied, user.username, user.password, home);
    expect(firstLogin.status).toBe(200);
    const deviceCookie = firstLogin.headers.get("set-cookie")!.split(";")[0];
    expect(deviceCookie).toMatch(/^taskboard_device=/);

    // Eight addresses, one guess each: each is under the per-client limit; the username limit is 8.
    for (let i = 0; i < 8; i++) {
      expect((await attempt(proxied, user.username, "guess", { "x-forwarded-for": `192.0.2.${i + 10}` })).status).toBe(401);
    }
    // A ninth new address is held back even with the right password…
    const fresh = await attempt(proxied, user.username, user.password, { "x-forwarded-for": "192.0.2.99" });
    expect(fresh.status).toBe(429);
    expect(fresh.headers.get("retry-after")).toMatch(/^\d+$/);
    // …while the owner still gets in from the address that signed in before,
    expect((await attempt(proxied, user.username, user.password, home)).status).toBe(200);
    // and from a new address with the cookie an earlier login left on the device,
    expect(
      (await attempt(proxied, user.username, user.password, { "x-forwarded-for": "203.0.113.200", cookie: deviceCookie })).status,
    ).toBe(200);
    // but not with a forged or another user's cookie.
    const forged = deviceCookie.replace(/.$/, (c) => (c === "A" ? "B" : "A"));
    expect((await attempt(proxied, user.username, user.password, { "x-forwarded-for": "203.0.113.201", cookie: forged })).status).toBe(429);
    const other = await newUser(proxied, "other-user");
    const otherCookie = (await attempt(proxied, other.username, other.password, { "x-forwarded-for": "203.0.113.202" })).headers
      .get("set-cookie")!
      .split(";")[0];
    expect((await attempt(proxied, user.username, user.password, { "x-forwarded-for": "203.0.113.203", cookie: otherCookie })).status).toBe(
      429,
    );
  });
});
