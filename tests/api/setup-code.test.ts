import { afterEach, describe, expect, it } from "vitest";

// Each test starts a server on a fresh database: slow on a loaded machine.
const SLOW = 300_000;
import { engineServer, newStore, type EngineServer, type Store } from "../helpers/engine";

// The first-administrator step on a fresh server with no ADMIN_* variables. From the server's own
// machine (loopback) it needs nothing more; from elsewhere, the setup code from the server's log.
// Requests from "elsewhere" go through TRUST_PROXY=1 with the test as the proxy (see
// tests/api/login-limits.test.ts for why); without TRUST_PROXY a made-up X-Forwarded-For is ignored.

const started: { server: EngineServer; store: Store }[] = [];

async function freshServer(env: Record<string, string> = {}) {
  const store = await newStore("setup");
  // No agent runs here: no runner child to start.
  const server = await engineServer(store, { ADMIN_USERNAME: "", ADMIN_PASSWORD: "", RUNNER_EMBEDDED: "false", ...env }, "setup");
  started.push({ server, store });
  return server;
}

afterEach(async () => {
  for (const { server, store } of started.splice(0)) {
    await server.stop();
    await store.drop();
  }
});

const remote = { "x-forwarded-for": "203.0.113.77" };

async function setup(server: EngineServer, json: Record<string, unknown>, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/api/setup`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(json),
  });
  return { status: response.status, body: await response.json() };
}

async function state(server: EngineServer, headers: Record<string, string> = {}) {
  return (await fetch(`${server.url}/api/setup`, { headers })).json();
}

describe("first start: the setup code", () => {
  it(
    "lets the server's own machine create the first administrator without a code, once",
    async () => {
      const server = await freshServer();
      // A made-up X-Forwarded-For changes nothing without TRUST_PROXY: the socket is loopback.
      expect(await state(server, remote)).toEqual({ needs_setup: true, code_required: false });
      const created = await setup(server, { username: "first", password: "first-password" }, remote);
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ username: "first", is_admin: true });
      const again = await setup(server, { username: "second", password: "second-password" });
      expect(again.status).toBe(409);
      expect(await state(server)).toEqual({ needs_setup: false, code_required: false });
    },
    SLOW,
  );

  it(
    "from another machine, refuses a missing or wrong code and accepts the one from the log",
    async () => {
      const server = await freshServer({ TRUST_PROXY: "1" });
      const line = server.output
        .join("")
        .split("\n")
        .find((l) => l.includes("setup code"));
      const code = /setup code ([A-Z0-9-]+)/.exec(line ?? "")?.[1];
      expect(code).toMatch(/^[A-Z0-9]{4}(-[A-Z0-9]{4}){3}$/);

      expect(await state(server, remote)).toEqual({ needs_setup: true, code_required: true });
      const missing = await setup(server, { username: "intruder", password: "intruder-password" }, remote);
      expect(missing.status).toBe(403);
      expect(missing.body.detail).toMatch(/setup code/);
      const wrong = await setup(server, { username: "intruder", password: "intruder-password", code: "AAAA-BBBB-CCCC-DDDD" }, remote);
      expect(wrong.status).toBe(403);
      expect(await state(server, remote)).toEqual({ needs_setup: true, code_required: true });

      const right = await setup(server, { username: "remote-admin", password: "remote-password", code: code!.toLowerCase() }, remote);
      expect(right.status).toBe(201);
      expect(right.body).toMatchObject({ username: "remote-admin", is_admin: true });
      const login = await server.call("POST", "/api/auth/login", { json: { username: "remote-admin", password: "remote-password" } });
      expect(login.status).toBe(200);
      // Closed now, with or without the code.
      expect((await setup(server, { username: "late", password: "late-password", code: code! }, remote)).status).toBe(409);
    },
    SLOW,
  );
});
