import crypto from "node:crypto";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineServer, eventually, newStore, newTask, workspaceOn, type EngineServer, type Store } from "../helpers/engine";
import { openStream } from "../helpers/sse";

// Event streams on a server of their own, with a 1 s heartbeat and a tiny event log: retention
// sends `reset`, and revoking the stream's credential closes it within one heartbeat. A second
// server checks the limits: streams per user, and a client that stops reading.

const HEARTBEAT_S = 1;
// No agent runs here: no runner child to start on either server.
const NO_RUNNER = { RUNNER_EMBEDDED: "false" };
let store: Store;
let server: EngineServer;
let admin: string;
let wsId: string;

beforeAll(async () => {
  store = await newStore("event-streams");
  server = await engineServer(
    store,
    { ...NO_RUNNER, EVENTS_HEARTBEAT_SECONDS: String(HEARTBEAT_S), EVENT_RETENTION_EVENTS: "3", EVENT_PRUNE_INTERVAL_SECONDS: "1" },
    "event-streams",
  );
  ({ token: admin, wsId } = await workspaceOn(server));
});

afterAll(async () => {
  await server?.stop();
  await store?.drop();
});

const eventsUrl = (query = "") => `${server.url}/api/workspaces/${wsId}/events${query}`;

/** A member of the workspace, logged in: its access token. */
async function newMember() {
  const username = `u_${crypto.randomBytes(4).toString("hex")}`;
  const password = `pw-${crypto.randomBytes(6).toString("hex")}`;
  const created = await server.call("POST", "/api/users", { token: admin, json: { username, password } });
  expect(created.status).toBe(201);
  expect((await server.call("POST", `/api/workspaces/${wsId}/members`, { token: admin, json: { username } })).status).toBe(201);
  const login = await server.call("POST", "/api/auth/login", { json: { username, password } });
  return { id: created.body.id as string, token: login.body.access_token as string };
}

/** How long the stream stayed open after `revoke`; fails if longer than two heartbeats. */
async function closesAfter(token: string, revoke: () => Promise<void>) {
  const stream = await openStream(eventsUrl(), { authorization: `Bearer ${token}` });
  expect(stream.status).toBe(200);
  let open = true;
  void stream.ended.then(() => (open = false));
  await new Promise((resolve) => setTimeout(resolve, HEARTBEAT_S * 1500));
  expect(open).toBe(true); // heartbeats alone keep it open
  const started = Date.now();
  await revoke();
  await Promise.race([stream.ended, new Promise((resolve) => setTimeout(resolve, HEARTBEAT_S * 2000 + 1000))]);
  stream.close();
  expect(open, "stream still open after revocation").toBe(false);
  return Date.now() - started;
}

describe("retention", () => {
  it("keeps the newest events only, and a reader behind them gets `reset` with the cursor to go on from", async () => {
    const board = await server.call("GET", `/api/workspaces/${wsId}/board`, { token: admin });
    const tasks = [];
    for (let i = 0; i < 6; i++) tasks.push(await newTask(server.call, admin, wsId, { title: `t${i}` }));
    // Pruning runs every second; a reader starting at the board's cursor is behind once it has.
    let message;
    for (let attempt = 0; attempt < 20; attempt++) {
      const stream = await openStream(eventsUrl(`?after=${board.body.cursor}`), { authorization: `Bearer ${admin}` });
      message = await stream.next(10_000, "an event");
      stream.close();
      if (message.event === "reset") break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(message!.event).toBe("reset");
    const head = (await server.call("GET", `/api/workspaces/${wsId}/board`, { token: admin })).body.cursor;
    expect(message!.id).toBe(head);

    // What the log still holds: the 3 newest events, replayed from just before them.
    const kept = await openStream(eventsUrl(`?after=${BigInt(head) - 3n}`), { authorization: `Bearer ${admin}` });
    const seen = [await kept.next(), await kept.next(), await kept.next()];
    kept.close();
    expect(seen.map((m) => JSON.parse(m.data!).task_id)).toEqual(tasks.slice(3).map((t) => t.id));
  });
});

describe("revocation reaches open streams within one heartbeat", () => {
  it("logout closes the stream of that access token", async () => {
    const member = await newMember();
    const took = await closesAfter(member.token, async () => {
      expect((await server.call("POST", "/api/auth/logout", { token: member.token })).status).toBe(204);
    });
    expect(took).toBeLessThan(HEARTBEAT_S * 2000 + 1000);
  });

  it("deleting an API key closes the streams opened with it", async () => {
    const member = await newMember();
    const key = await server.call("POST", "/api/auth/api-keys", { token: member.token, json: { name: "stream" } });
    expect(key.status).toBe(201);
    await closesAfter(key.body.key, async () => {
      expect((await server.call("DELETE", `/api/auth/api-keys/${key.body.id}`, { token: member.token })).status).toBe(204);
    });
  });

  it("removing a member closes their stream of that workspace", async () => {
    const member = await newMember();
    await closesAfter(member.token, async () => {
      expect((await server.call("DELETE", `/api/workspaces/${wsId}/members/${member.id}`, { token: admin })).status).toBe(204);
    });
    expect((await server.call("GET", `/api/workspaces/${wsId}/events`, { token: member.token })).status).toBe(404);
  });

  it("disabling a user closes their streams", async () => {
    const member = await newMember();
    await closesAfter(member.token, async () => {
      expect((await server.call("PATCH", `/api/users/${member.id}`, { token: admin, json: { disabled: true } })).status).toBe(200);
    });
  });
});

// Limits on a server of their own: a small buffer per stream (64 KiB), a 1 s heartbeat, and the
// default cap of 20 streams per user.
describe("limits of open streams", () => {
  const BUFFER = 64 * 1024;
  let limitedStore: Store;
  let limited: EngineServer;
  let token: string;
  let ws: string;

  beforeAll(async () => {
    limitedStore = await newStore("streams-limits");
    limited = await engineServer(
      limitedStore,
      { ...NO_RUNNER, EVENTS_HEARTBEAT_SECONDS: String(HEARTBEAT_S), EVENT_STREAM_BUFFER_BYTES: String(BUFFER) },
      "streams-limits",
    );
    ({ token, wsId: ws } = await workspaceOn(limited));
  }, 120_000);

  afterAll(async () => {
    await limited?.stop();
    await limitedStore?.drop();
  });

  const url = () => `${limited.url}/api/workspaces/${ws}/events`;

  it("lets a user hold 20 streams over all their credentials: the 21st gets 429 in words, closing one frees a slot", async () => {
    const key = await limited.call("POST", "/api/auth/api-keys", { token, json: { name: "streams" } });
    expect(key.status).toBe(201);
    const streams = [];
    for (let i = 0; i < 20; i++) {
      const stream = await openStream(url(), { authorization: `Bearer ${i % 2 ? key.body.key : token}` });
      expect(stream.status).toBe(200);
      streams.push(stream);
    }
    try {
      for (const credential of [token, key.body.key]) {
        const refused = await fetch(url(), { headers: { authorization: `Bearer ${credential}` } });
        expect(refused.status).toBe(429);
        expect(refused.headers.get("retry-after")).toBe("5");
        expect(await refused.json()).toEqual({
          detail:
            "Too many open event streams: a user may have at most 20 open at once. Close one (another tab, window or script) and try again.",
        });
      }
      // Another user is not held back by this one's streams.
      const other = await limited.call("POST", "/api/users", { token, json: { username: "other_streamer", password: "other-password-1" } });
      expect(other.status).toBe(201);
      await limited.call("POST", `/api/workspaces/${ws}/members`, { token, json: { username: "other_streamer" } });
      const otherLogin = await limited.call("POST", "/api/auth/login", {
        json: { username: "other_streamer", password: "other-password-1" },
      });
      const theirs = await openStream(url(), { authorization: `Bearer ${otherLogin.body.access_token}` });
      expect(theirs.status).toBe(200);
      theirs.close();

      streams.pop()!.close();
      const again = await eventually(
        async () => {
          const stream = await openStream(url(), { authorization: `Bearer ${token}` });
          if (stream.status === 200) return stream;
          stream.close();
          return undefined;
        },
        5_000,
        "a free slot after closing a stream",
      );
      streams.push(again);
      const full = await fetch(url(), { headers: { authorization: `Bearer ${token}` } });
      expect(full.status).toBe(429);
      await full.body?.cancel();
    } finally {
      for (const stream of streams) stream.close();
    }
    // Every slot comes back once the streams are closed.
    await eventually(
      async () => {
        const probes = await Promise.all(Array.from({ length: 20 }, () => openStream(url(), { authorization: `Bearer ${token}` })));
        probes.forEach((probe) => probe.close());
        return probes.every((probe) => probe.status === 200) ? true : undefined;
      },
      5_000,
      "all 20 slots free again",
    );
  });

  it("drops a client that stops reading while events pile up, and keeps serving the others", async () => {
    const reader = await openStream(url(), { authorization: `Bearer ${token}` });
    const stalled = await stalledClient(new URL(url()), token);
    // About 6 MB of events (each task.created carries the 100 kB description), far more than the
    // stream's 64 KiB buffer and the sockets' buffers together.
    const description = "x".repeat(100_000);
    const created: string[] = [];
    for (let i = 0; i < 60; i++) created.push((await newTask(limited.call, token, ws, { title: `big ${i}`, description })).id);
    // The reading client gets every one of them.
    const seen = await reader.until(
      (message) => message.event === "task.created" && JSON.parse(message.data!).task_id === created.at(-1),
      30_000,
    );
    expect(seen.filter((message) => message.event === "task.created")).toHaveLength(60);
    reader.close();

    // Within two heartbeats of its buffer filling, the server ends the stalled client's connection.
    await new Promise((resolve) => setTimeout(resolve, HEARTBEAT_S * 3000));
    const { bytes, closed } = await stalled.drain(5_000);
    expect(closed, "the connection of the client that stopped reading was closed").toBe(true);
    expect(bytes, "what the stalled client could still read is bounded").toBeLessThan(created.length * description.length);
    expect(stalled.text()).not.toContain(created.at(-1));

    // The server goes on serving: a new stream and a request.
    const after = await openStream(url(), { authorization: `Bearer ${token}` });
    expect(after.status).toBe(200);
    const task = await newTask(limited.call, token, ws, { title: "after the drop" });
    const message = await after.until((m) => m.event === "task.created" && JSON.parse(m.data!).task_id === task.id);
    expect(message.length).toBeGreaterThan(0);
    after.close();
  }, 120_000);
});

/**
 * An event stream over a raw socket that reads the response headers and then nothing: the kernel's
 * buffers fill and the server sees a client that does not read. `drain` reads again and reports
 * whether the server closed the connection meanwhile.
 */
async function stalledClient(target: URL, token: string) {
  const socket = net.connect(Number(target.port), target.hostname);
  const chunks: Buffer[] = [];
  let closed = false;
  socket.on("close", () => (closed = true));
  socket.on("error", () => {}); // a reset is how a dropped connection may end
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  socket.write(
    `GET ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\nAuthorization: Bearer ${token}\r\nAccept: text/event-stream\r\n\r\n`,
  );
  await new Promise<void>((resolve) =>
    socket.once("data", (chunk) => {
      chunks.push(chunk);
      socket.pause();
      resolve();
    }),
  );
  expect(Buffer.concat(chunks).toString("latin1")).toMatch(/^HTTP\/1\.1 200/);
  return {
    async drain(timeoutMs: number) {
      socket.on("data", (chunk) => chunks.push(chunk));
      socket.resume();
      const deadline = Date.now() + timeoutMs;
      while (!closed && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      socket.destroy();
      return { bytes: chunks.reduce((sum, chunk) => sum + chunk.length, 0), closed };
    },
    text: () => Buffer.concat(chunks).toString("utf8"),
  };
}
