import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineServer, eventually, newStore, newTask, workspaceOn, type EngineServer, type Store } from "../helpers/engine";
import { FAST_RETRIES, receivedAt, type Receiver, SLOW, WAIT } from "../helpers/webhook-delivery";
import { startReceiver, verifies } from "../fixtures/webhook-receiver";

// Delivery from the event log to a local receiver, on a server of its own with short retry settings
// (tests/helpers/webhook-delivery.ts). Across a restart and the SSRF guard: webhook-delivery-restarts.test.ts.

let store: Store;
let server: EngineServer;
let receiver: Receiver;
let token: string;

beforeAll(async () => {
  receiver = await startReceiver();
  store = await newStore("webhooks");
  // No agent runs here: no runner child to start.
  server = await engineServer(store, { ...FAST_RETRIES, RUNNER_EMBEDDED: "false" }, "webhooks");
  ({ token } = await workspaceOn(server));
}, SLOW);

afterAll(async () => {
  await server?.stop();
  await store?.drop();
  await receiver?.stop();
}, SLOW);

/** A fresh workspace with one endpoint at the receiver (its own path, so tests do not see each other's requests). */
async function endpoint(events: string[], path: string, extra: Record<string, unknown> = {}) {
  const ws = await server.call("POST", "/api/workspaces", { token, json: { name: `ws-${path}` } });
  const wsId = ws.body.id as string;
  const created = await server.call("POST", `/api/workspaces/${wsId}/webhooks`, {
    token,
    json: { url: `${receiver.url}/${path}`, events, ...extra },
  });
  expect(created.status).toBe(201);
  return { wsId, hook: created.body as { id: string; secret?: string } };
}

const at = (path: string) => receivedAt(receiver, path);

describe("webhook delivery", () => {
  it(
    "POSTs each event in log order, signed, with the event, delivery and signature headers",
    async () => {
      const { wsId, hook } = await endpoint(["task.created", "task.moved"], "order");
      const titles = ["one", "two", "three", "four"];
      for (const title of titles) await newTask(server.call, token, wsId, { title });
      const got = await eventually(async () => (at("/hook/order").length >= 4 ? at("/hook/order") : undefined), WAIT, "four deliveries");
      expect(got.map((entry) => entry.event.data.title)).toEqual(titles);
      const ids = got.map((entry) => BigInt(entry.event.id));
      expect([...ids].sort((a, b) => (a < b ? -1 : 1))).toEqual(ids);
      for (const entry of got) {
        expect(entry.headers["x-taskboard-event"]).toBe("task.created");
        expect(entry.headers["content-type"]).toBe("application/json");
        expect(entry.headers["x-taskboard-delivery"]).toMatch(/^[0-9a-f-]{36}$/);
        expect(verifies(hook.secret!, entry.body, entry.headers["x-taskboard-signature-256"])).toBe(true);
        expect(verifies("another-secret-entirely", entry.body, entry.headers["x-taskboard-signature-256"])).toBe(false);
        expect(Object.keys(entry.event).sort()).toEqual(["actor", "at", "data", "id", "task_id", "type", "workspace_id"]);
      }
      // Only the chosen types: a question is not sent.
      const task = got[0].event.data;
      expect(
        (await server.call("POST", `/api/workspaces/${wsId}/questions`, { token, json: { task_id: task.id, content: "?" } })).status,
      ).toBe(201);
      await newTask(server.call, token, wsId, { title: "five" });
      await eventually(async () => (at("/hook/order").length >= 5 ? true : undefined), WAIT, "the fifth delivery");
      expect(at("/hook/order").map((entry) => entry.event.type)).not.toContain("question.created");

      const page = await server.call("GET", `/api/workspaces/${wsId}/webhooks/${hook.id}/deliveries?limit=2`, { token });
      expect(page.status).toBe(200);
      expect(page.body.has_more).toBe(true);
      expect(page.body.items).toHaveLength(2);
      expect(page.body.items[0]).toMatchObject({
        status: "succeeded",
        response_code: 200,
        attempts: 1,
        event_type: "task.created",
        error: null,
      });
      expect(JSON.parse(page.body.items[0].request_body).data.title).toBe("five");
      expect(page.body.items[0].history).toHaveLength(1);
      const older = await server.call(
        "GET",
        `/api/workspaces/${wsId}/webhooks/${hook.id}/deliveries?limit=2&before=${page.body.items[1].id}`,
        { token },
      );
      expect(older.body.items.map((item: { request_body: string }) => JSON.parse(item.request_body).data.title)).toEqual(["three", "two"]);
    },
    SLOW,
  );

  it(
    "retries after a 500 and then succeeds, keeping the later events behind it",
    async () => {
      const { wsId, hook } = await endpoint(["task.created"], "retry");
      let failures = 0;
      receiver.answerWith((entry) => (entry.path === "/hook/retry" && entry.event.data.title === "first" && failures++ < 2 ? 500 : 200));
      await newTask(server.call, token, wsId, { title: "first" });
      await newTask(server.call, token, wsId, { title: "second" });
      await eventually(
        async () => (at("/hook/retry").some((entry) => entry.event.data.title === "second") ? true : undefined),
        WAIT,
        "second",
      );
      receiver.answerWith(() => 200);
      // Three tries of "first" (500, 500, 200), and "second" only after it.
      expect(at("/hook/retry").map((entry) => entry.event.data.title)).toEqual(["first", "first", "first", "second"]);
      const page = await server.call("GET", `/api/workspaces/${wsId}/webhooks/${hook.id}/deliveries`, { token });
      const first = page.body.items.find((item: { request_body: string }) => JSON.parse(item.request_body).data.title === "first");
      expect(first).toMatchObject({ status: "succeeded", attempts: 3, response_code: 200 });
      expect(first.history.map((attempt: { response_code: number }) => attempt.response_code)).toEqual([500, 500, 200]);
      // One delivery id for all attempts of one delivery.
      expect(
        new Set(
          at("/hook/retry")
            .slice(0, 3)
            .map((entry) => entry.headers["x-taskboard-delivery"]),
        ).size,
      ).toBe(1);
    },
    SLOW,
  );

  it(
    "disables an endpoint that fails for the whole retry window, saying why; enabling resumes",
    async () => {
      const { wsId, hook } = await endpoint(["*"], "down");
      receiver.answerWith((entry) => (entry.path === "/hook/down" ? 503 : 200));
      await newTask(server.call, token, wsId, { title: "never arrives" });
      const disabled = await eventually(
        async () => {
          const read = await server.call("GET", `/api/workspaces/${wsId}/webhooks/${hook.id}`, { token });
          return read.body.enabled === false ? read.body : undefined;
        },
        WAIT,
        "the endpoint to be disabled",
      );
      expect(disabled.disabled_reason).toMatch(
        new RegExp(
          `^Disabled .*: every attempt to deliver event #\\d+ failed for ${FAST_RETRIES.WEBHOOK_RETRY_WINDOW_SECONDS} s \\(\\d+ attempts; last: HTTP 503\\)`,
        ),
      );
      const page = await server.call("GET", `/api/workspaces/${wsId}/webhooks/${hook.id}/deliveries`, { token });
      expect(page.body.items[0]).toMatchObject({ status: "failed", response_code: 503 });
      expect(page.body.items[0].attempts).toBeGreaterThan(1);
      // Nothing more is sent while disabled; redelivering is refused until it is enabled.
      const redeliver = `/api/workspaces/${wsId}/webhooks/${hook.id}/deliveries/${page.body.items[0].id}/redeliver`;
      expect((await server.call("POST", redeliver, { token })).status).toBe(409);
      receiver.answerWith(() => 200);
      const enabled = await server.call("PATCH", `/api/workspaces/${wsId}/webhooks/${hook.id}`, { token, json: { enabled: true } });
      expect(enabled.body).toMatchObject({ enabled: true, disabled_reason: null });
      await newTask(server.call, token, wsId, { title: "after the outage" });
      await eventually(
        async () => (at("/hook/down").some((entry) => entry.event.data?.title === "after the outage") ? true : undefined),
        WAIT,
        "resume",
      );
    },
    SLOW,
  );

  it(
    "redelivers a delivery once, as a new delivery with the same body",
    async () => {
      const { wsId, hook } = await endpoint(["task.created"], "again");
      await newTask(server.call, token, wsId, { title: "send me twice" });
      const original = await eventually(async () => {
        const page = await server.call("GET", `/api/workspaces/${wsId}/webhooks/${hook.id}/deliveries`, { token });
        return page.body.items[0]?.status === "succeeded" ? page.body.items[0] : undefined;
      }, WAIT);
      const again = await server.call("POST", `/api/workspaces/${wsId}/webhooks/${hook.id}/deliveries/${original.id}/redeliver`, { token });
      expect(again.status).toBe(202);
      expect(again.body).toMatchObject({
        status: "pending",
        redelivery_of: original.id,
        request_body: original.request_body,
        event_id: original.event_id,
      });
      const done = await eventually(async () => {
        const page = await server.call("GET", `/api/workspaces/${wsId}/webhooks/${hook.id}/deliveries`, { token });
        const row = page.body.items.find((item: { id: string }) => item.id === again.body.id);
        return row?.status === "succeeded" ? row : undefined;
      }, WAIT);
      expect(done.attempts).toBe(1);
      const bodies = at("/hook/again").map((entry) => entry.body);
      expect(bodies).toEqual([original.request_body, original.request_body]);
      expect(at("/hook/again")[1].headers["x-taskboard-delivery"]).toBe(again.body.id);
    },
    SLOW,
  );

  it(
    "reaches a host name on a private address when WEBHOOKS_ALLOW_PRIVATE_ADDRESSES=true",
    async () => {
      const ws = await server.call("POST", "/api/workspaces", { token, json: { name: "ws-localhost" } });
      const hook = await server.call("POST", `/api/workspaces/${ws.body.id}/webhooks`, {
        token,
        json: { url: `http://localhost:${receiver.port}/hook/named`, events: ["task.created"] },
      });
      await newTask(server.call, token, ws.body.id, { title: "by name" });
      await eventually(async () => (at("/hook/named").length === 1 ? true : undefined), WAIT, "delivery by host name");
      expect(hook.status).toBe(201);
    },
    SLOW,
  );
});
