import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineServer, newStore, type EngineServer, type Store } from "../helpers/engine";

// POST /api/setup against what a web page open in the operator's browser could send to a server
// on their machine that has no administrator yet: a "simple" cross-site request (text/plain, no
// preflight), a cross-site JSON request, and DNS rebinding (the page's own domain now resolving to
// this server, so its requests are same-origin to the browser but carry that domain as Host).

let store: Store;
let server: EngineServer;
let port: number;

beforeAll(async () => {
  store = await newStore("setup-origin");
  // No agent runs here: no runner child to start.
  server = await engineServer(
    store,
    { ADMIN_USERNAME: "", ADMIN_PASSWORD: "", PUBLIC_URL: "https://board.example.test", RUNNER_EMBEDDED: "false" },
    "setup-origin",
  );
  port = Number(new URL(server.url).port);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await store?.drop();
});

const ADMIN = JSON.stringify({ username: "first", password: "first-password" });

/** POST /api/setup with exactly these headers (fetch would not let a test choose Host). */
function setup(headers: Record<string, string>, body = ADMIN): Promise<{ status: number; body: { detail?: unknown } }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: "127.0.0.1", port, path: "/api/setup", method: "POST", headers: { host: `127.0.0.1:${port}`, ...headers } },
      (response) => {
        let text = "";
        response.on("data", (chunk) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode!, body: JSON.parse(text) }));
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

async function stillOpen() {
  expect(await (await fetch(`${server.url}/api/setup`)).json()).toMatchObject({ needs_setup: true });
}

describe("POST /api/setup refuses what a web page could send", () => {
  it("a JSON body sent as text/plain, or with no Content-Type: 415", async () => {
    const sent: Record<string, string>[] = [
      { "content-type": "text/plain" },
      { "content-type": "text/plain;charset=UTF-8", origin: "null" },
      {},
    ];
    for (const headers of sent) {
      const response = await setup(headers);
      expect(response.status).toBe(415);
      expect(response.body.detail).toMatch(/Content-Type: application\/json/);
    }
    await stillOpen();
  });

  it("an Origin of another site, or null: 403", async () => {
    for (const origin of ["https://evil.example", `http://127.0.0.1:${port + 1}`, "null"]) {
      const response = await setup({ "content-type": "application/json", origin });
      expect(response.status).toBe(403);
      expect(response.body.detail).toMatch(/Cross-site setup refused/);
    }
    await stillOpen();
  });

  it("a Host the server does not answer to (DNS rebinding): 421, even with that host's own Origin", async () => {
    for (const host of [`evil.example:${port}`, "board.example.test.evil.example", "localhost.evil.example", `x@127.0.0.1:${port}`]) {
      const response = await setup({ host, origin: `http://${host}`, "content-type": "application/json" });
      expect(response.status).toBe(421);
      expect(response.body.detail).toMatch(/does not answer to the host .*PUBLIC_URL/);
    }
    await stillOpen();
  });
});

describe("POST /api/setup accepts the server's own page", () => {
  it("for localhost and loopback with or without their Origin, checked up to the 409 of a done setup", async () => {
    // A body that fails validation shows the request got past the checks, without creating anyone.
    for (const [host, origin] of [
      [`localhost:${port}`, `http://localhost:${port}`],
      [`127.0.0.1:${port}`, `http://127.0.0.1:${port}`],
      [`[::1]:${port}`, undefined],
      [`127.0.0.1:${port}`, undefined],
    ] as const) {
      const response = await setup({ host, "content-type": "application/json", ...(origin ? { origin } : {}) }, "{}");
      expect({ host, status: response.status }).toEqual({ host, status: 422 });
    }
    await stillOpen();
  });

  it("for PUBLIC_URL's host, from its Origin, behind a proxy that keeps or rewrites Host", async () => {
    const rewritten = await setup({ "content-type": "application/json", origin: "https://board.example.test" }, "{}");
    expect(rewritten.status).toBe(422);
    const created = await setup({
      host: "board.example.test",
      origin: "https://board.example.test",
      "content-type": "application/json; charset=utf-8",
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ username: "first", is_admin: true });
    expect((await setup({ "content-type": "application/json" })).status).toBe(409);
  });
});
