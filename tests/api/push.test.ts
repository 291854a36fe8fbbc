import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  engineServer,
  eventually,
  finished,
  FIXTURE_AGENT,
  newStore,
  newTask,
  outputLines,
  workspaceOn,
  type EngineServer,
  type Store,
} from "../helpers/engine";
import { startPushService, type PushMessage, type PushService } from "../fixtures/push-service";

// Browser push (docs/notifications.md, "Browser push") against a local push service that checks
// VAPID and decrypts each message as a browser would (tests/fixtures/push-service.ts). Its own
// server: the private-endpoint escape and the push service's certificate are server-wide.

const FAKE_ACP = path.resolve("tests/fixtures/fake-acp-agent.mjs");
const SERVER_PORT = 14410;

let push: PushService;
let store: Store;
let server: EngineServer;
let token: string;
let wsId: string;
const people: Record<string, { id: string; username: string; token: string }> = {};

function env(): Record<string, string> {
  return {
    AGENT_COMMAND: FIXTURE_AGENT,
    AGENT_KILL_GRACE_SECONDS: "1",
    // The local push service only: every other private address stays refused.
    PUSH_ALLOW_PRIVATE_ENDPOINTS: "127.0.0.1",
    NODE_EXTRA_CA_CERTS: push.caFile,
    VAPID_SUBJECT: "mailto:ops@example.com",
  };
}

async function signIn(username: string) {
  const login = await server.call("POST", "/api/auth/login", { json: { username, password: "password123" } });
  expect(login.status).toBe(200);
  return login.body.access_token as string;
}

beforeAll(async () => {
  push = await startPushService(14411);
  store = await newStore("push");
  server = await engineServer(store, env(), "push", SERVER_PORT);
  ({ token, wsId } = await workspaceOn(server));
  for (const name of ["ann", "vic", "sue"]) {
    const username = `${name}-${wsId.slice(-6)}`;
    const made = await server.call("POST", "/api/users", { token, json: { username, password: "password123" } });
    expect(made.status).toBe(201);
    expect((await server.call("POST", `/api/workspaces/${wsId}/members`, { token, json: { username, role: "member" } })).status).toBe(201);
    people[name] = { id: made.body.id, username, token: await signIn(username) };
  }
});

afterAll(async () => {
  await server?.stop();
  await store?.drop();
  await push?.close();
});

const base = () => `/api/workspaces/${wsId}`;
const subscriptions = "/api/me/push-subscriptions";

async function subscribe(person: string) {
  const subscription = push.subscription();
  const saved = await server.call("POST", subscriptions, { token: people[person].token, json: subscription });
  expect(saved.status).toBe(201);
  return subscription;
}

function answer(key: string, text: string) {
  return server.call("POST", "/api/push/answers", { json: { key, answer: text } });
}

/** The message the push service decrypted for `endpoint` whose payload passes `match`. */
function messageTo(endpoint: string, match: (payload: any) => boolean, what: string): Promise<PushMessage> {
  return eventually(async () => push.messages.find((message) => message.endpoint === endpoint && match(message.payload)), 30_000, what);
}

describe("a person's push subscriptions", () => {
  it("are stored, listed with the server's VAPID key and deleted; bad, http and private endpoints are refused with 422", async () => {
    const ann = people.ann.token;
    expect((await server.call("GET", subscriptions)).status).toBe(401);
    expect((await server.call("POST", subscriptions, { json: push.subscription() })).status).toBe(401);
    expect((await server.call("GET", subscriptions, { token: "tb_not-a-token" })).status).toBe(401);

    const subscription = await subscribe("ann");
    const listed = await server.call("GET", subscriptions, { token: ann });
    expect(listed.status).toBe(200);
    // An uncompressed P-256 point, base64url: what PushManager.subscribe() takes as applicationServerKey.
    expect(listed.body.public_key).toMatch(/^B[A-Za-z0-9_-]{86}$/);
    expect(listed.body.subscriptions).toEqual([{ endpoint: subscription.endpoint, created_at: expect.any(String) }]);
    // Vic sees only his own.
    expect((await server.call("GET", subscriptions, { token: people.vic.token })).body.subscriptions).toEqual([]);

    const keys = subscription.keys;
    for (const [json, loc, words] of [
      [{ endpoint: "not a url", keys }, "endpoint", /url/i],
      [{ endpoint: "https://push.example.com/x" }, "keys", /required/i],
      [{ endpoint: "https://push.example.com/x", keys: { p256dh: "a b", auth: keys.auth } }, "p256dh", /should match pattern/],
      [{ endpoint: "http://push.example.com/x", keys }, "endpoint", /must be an https URL/],
      [{ endpoint: "https://10.1.2.3/push/x", keys }, "endpoint", /private, loopback or reserved/],
      [{ endpoint: "https://[::1]:14411/push/x", keys }, "endpoint", /private, loopback or reserved/],
      [{ endpoint: "https://169.254.169.254/latest", keys }, "endpoint", /private, loopback or reserved/],
    ] as const) {
      const refused = await server.call("POST", subscriptions, { token: ann, json });
      expect(refused.status, JSON.stringify(json)).toBe(422);
      const entry = (refused.body.detail as { loc: string[]; msg: string }[]).find((e) => e.loc.includes(loc));
      expect(entry?.msg, JSON.stringify(refused.body)).toMatch(words);
    }

    // Someone else's endpoint is not theirs to delete.
    expect(
      (await server.call("DELETE", subscriptions, { token: people.vic.token, json: { endpoint: subscription.endpoint } })).status,
    ).toBe(404);
    expect((await server.call("DELETE", subscriptions, { token: ann, json: {} })).status).toBe(422);
    expect((await server.call("DELETE", subscriptions, { token: ann, json: { endpoint: subscription.endpoint } })).status).toBe(204);
    expect((await server.call("GET", subscriptions, { token: ann })).body.subscriptions).toEqual([]);
  });

  it("refuses an agent's token with 403", async () => {
    const task = await newTask(server.call, token, wsId, { title: "hold" });
    const run = await server.call("POST", `${base()}/tasks/${task.id}/runs`, { token, json: { instructions: "hold 60" } });
    expect(run.status).toBe(202);
    const agent = await eventually(async () => {
      const log = await server.call("GET", `${base()}/executions/${run.body.id}/log`, { token });
      return outputLines(log.body)
        .find((line) => line.startsWith("TOKEN="))
        ?.slice("TOKEN=".length);
    }, 30_000);
    for (const [method, json] of [
      ["GET", undefined],
      ["POST", push.subscription()],
      ["DELETE", { endpoint: "https://127.0.0.1:14411/push/x" }],
    ] as const) {
      const refused = await server.call(method, subscriptions, { token: agent, json });
      expect([refused.status, refused.body.detail]).toEqual([403, expect.stringMatching(/^An agent token may not /)]);
    }
    await server.call("POST", `${base()}/executions/${run.body.id}/cancel`, { token });
  });
});

describe("an agent's question by push", () => {
  it("reaches the person's browser with two options as actions; an action's key answers it and the run resumes", async () => {
    const subscription = await subscribe("ann");
    const agent = await server.call("POST", `${base()}/agents`, {
      token,
      json: { name: "Fake ACP", kind: "acp", command: process.execPath, args: [FAKE_ACP] },
    });
    expect(agent.status).toBe(201);
    const task = await newTask(server.call, token, wsId, { title: "needs permission", assignees: [{ kind: "user", id: people.ann.id }] });
    const started = await server.call("POST", `${base()}/tasks/${task.id}/runs`, {
      token,
      json: { instructions: "@fake permission", agent_id: agent.body.id },
    });
    expect(started.status).toBe(202);

    const message = await messageTo(subscription.endpoint, (payload) => payload.actions?.length > 0, "the question's push message");
    const { payload } = message;
    expect(payload.url).toBe(`/w/${wsId}?task=${task.id}`);
    expect(payload.title).toBeTruthy();
    expect(payload.actions.map((action: { title: string }) => action.title)).toEqual(["Allow once", "Always allow", "Answer…"]);
    expect(payload.actions[0].key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(payload.actions[1].key).not.toBe(payload.actions[0].key);
    expect(payload.actions[2].key).toBeUndefined();
    // A Topic (≤ 32 base64url characters) lets a retry replace rather than repeat; a TTL bounds the wait.
    expect(message.topic).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
    expect(message.ttl).toBe(86_400);
    expect(message.urgency).toBe("high");
    const keys = await server.call("GET", subscriptions, { token: people.ann.token });
    expect(message.vapidKey).toBe(keys.body.public_key);

    const forged = await answer("A".repeat(43), "Allow once");
    expect([forged.status, forged.body.detail]).toEqual([401, "This answer link is not valid, or its question was deleted."]);
    expect((await answer("short", "Allow once")).status).toBe(401);
    expect((await server.call("POST", "/api/push/answers", { json: { key: payload.actions[1].key } })).status).toBe(422);

    const answered = await answer(payload.actions[1].key, payload.actions[1].answer);
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ status: "answered", answer: "Always allow", answered_by: people.ann.id, answered_via: "push" });

    const done = await finished(server.call, token, wsId, started.body.id);
    expect(done.status).toBe("succeeded");
    const log = await server.call("GET", `${base()}/executions/${started.body.id}/log`, { token });
    expect(JSON.stringify(log.body.entries)).toContain("Permission answered: allow-always");

    const again = await answer(payload.actions[0].key, payload.actions[0].answer);
    expect(again.status).toBe(403);
    expect(again.body.detail).toMatch(new RegExp(`already answered by ${people.ann.username} via push`, "i"));
    await server.call("DELETE", subscriptions, { token: people.ann.token, json: { endpoint: subscription.endpoint } });
  });

  it("refuses the key of a person who became a viewer, in words, and changes nothing", async () => {
    const subscription = await subscribe("vic");
    const task = await newTask(server.call, token, wsId, { title: "for vic", assignees: [{ kind: "user", id: people.vic.id }] });
    const asked = await server.call("POST", `${base()}/questions`, {
      token,
      json: { task_id: task.id, content: "Which database?", options: ["PostgreSQL", "SQLite", "Both"] },
    });
    expect(asked.status).toBe(201);
    const { payload } = await messageTo(subscription.endpoint, (p) => p.url.includes(task.id) && p.actions?.length > 0, "vic's question");
    expect(payload.actions.map((action: { title: string }) => action.title)).toEqual(["PostgreSQL", "SQLite", "Answer…"]);

    expect((await server.call("DELETE", `${base()}/members/${people.vic.id}`, { token })).status).toBe(204);
    expect(
      (await server.call("POST", `${base()}/members`, { token, json: { username: people.vic.username, role: "viewer" } })).status,
    ).toBe(201);
    const refused = await answer(payload.actions[0].key, "PostgreSQL");
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/^Viewers cannot answer questions/);
    const still = await server.call("GET", `${base()}/questions?task_id=${task.id}`, { token });
    expect(still.body[0]).toMatchObject({ id: asked.body.id, status: "open", answer: null });
  });
});

describe("a subscription the push service says is gone", () => {
  it("is deleted when a notification meets its 410, while the person's other browser gets the message", async () => {
    const kept = await subscribe("ann");
    const dropped = await subscribe("ann");
    push.gone(dropped.endpoint);
    const task = await newTask(server.call, token, wsId, {
      title: "Write the release notes",
      assignees: [{ kind: "user", id: people.ann.id }],
    });
    const message = await messageTo(kept.endpoint, (payload) => payload.url.includes(task.id), "the assignment's push message");
    expect(message.payload.actions).toEqual([]);
    // The person's subscriptions are sent to one after another: the dropped one's 410 may come after.
    await eventually(async () => push.refused.find((refusal) => refusal.endpoint === dropped.endpoint), 20_000, "the 410");
    expect(push.refused).toContainEqual({ endpoint: dropped.endpoint, status: 410, why: "subscription expired" });
    await eventually(async () => {
      const listed = await server.call("GET", subscriptions, { token: people.ann.token });
      const endpoints = listed.body.subscriptions.map((s: { endpoint: string }) => s.endpoint);
      return endpoints.includes(kept.endpoint) && !endpoints.includes(dropped.endpoint) ? true : undefined;
    }, 20_000);
  });
});

describe("a person with no browser to send to", () => {
  it("has the push delivery skipped, saying so, not sent: whether none was ever subscribed or each was gone", async () => {
    const pushDelivery = (title: string) =>
      eventually(async () => {
        const list = await server.call("GET", "/api/me/notification-deliveries", { token: people.sue.token });
        return (list.body as { channel: string; status: string; title: string; last_error: string | null }[]).find(
          (delivery) => delivery.channel === "push" && delivery.title.includes(title) && delivery.status !== "pending",
        );
      }, 20_000);
    const never = await newTask(server.call, token, wsId, { title: "Nobody's browser", assignees: [{ kind: "user", id: people.sue.id }] });
    expect(await pushDelivery(never.title)).toMatchObject({
      status: "skipped",
      last_error: "No browser of this person is subscribed to push",
    });

    const gone = await subscribe("sue");
    push.gone(gone.endpoint);
    const dropped = await newTask(server.call, token, wsId, {
      title: "A dropped browser",
      assignees: [{ kind: "user", id: people.sue.id }],
    });
    expect(await pushDelivery(dropped.title)).toMatchObject({
      status: "skipped",
      last_error: "No browser of this person is subscribed to push",
    });
    expect(push.refused).toContainEqual({ endpoint: gone.endpoint, status: 410, why: "subscription expired" });
  });
});

describe("an expired answer key", () => {
  it("is refused in words while the question stays open", async () => {
    const subscription = await subscribe("ann");
    const task = await newTask(server.call, token, wsId, { title: "late", assignees: [{ kind: "user", id: people.ann.id }] });
    const asked = await server.call("POST", `${base()}/questions`, {
      token,
      json: { task_id: task.id, content: "Ship it?", options: ["Yes", "No"] },
    });
    expect(asked.status).toBe(201);
    const { payload } = await messageTo(subscription.endpoint, (p) => p.url.includes(task.id) && p.actions?.length > 0, "the question");
    // PGlite is one process's: the server stops while the clock is turned for its keys.
    await server.stop();
    await store.sql("UPDATE answer_keys SET expires_at = now() - interval '1 minute' WHERE question_id = $1", [asked.body.id]);
    server = await engineServer(store, env(), "push", SERVER_PORT);
    const expired = await answer(payload.actions[0].key, "Yes");
    expect([expired.status, expired.body.detail]).toEqual([401, "This answer link has expired. Answer the question on the board instead."]);
    const still = await server.call("GET", `${base()}/questions?task_id=${task.id}`, { token });
    expect(still.body[0]).toMatchObject({ id: asked.body.id, status: "open", answer: null });
  });
});
