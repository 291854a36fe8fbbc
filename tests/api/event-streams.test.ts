import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineServer, newStore, newTask, workspaceOn, type EngineServer, type Store } from "../helpers/engine";
import { openStream } from "../helpers/sse";

// Event streams on a server of their own, with a 1 s heartbeat and a tiny event log: retention
// sends `reset`, and revoking the stream's credential closes it within one heartbeat.

const HEARTBEAT_S = 1;
let store: Store;
let server: EngineServer;
let admin: string;
let wsId: string;

beforeAll(async () => {
  store = await newStore("event-streams");
  server = await engineServer(
    store,
    { EVENTS_HEARTBEAT_SECONDS: String(HEARTBEAT_S), EVENT_RETENTION_EVENTS: "3", EVENT_PRUNE_INTERVAL_SECONDS: "1" },
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
