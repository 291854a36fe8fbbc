import { afterAll, describe, expect, it } from "vitest";
import { engineServer, eventually, newStore, newTask, workspaceOn, type EngineServer, type Store } from "../helpers/engine";
import { startReceiver } from "../fixtures/webhook-receiver";

// Two app instances on one PostgreSQL database, each with its delivery worker: every event reaches
// the endpoint once, in log order, whichever instance recorded it and whichever delivered it.

let store: Store;
const servers: EngineServer[] = [];
let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;
afterAll(async () => {
  for (const server of servers) await server.stop();
  await store?.drop();
  await receiver?.stop();
}, 120_000);

describe("webhook delivery across instances", () => {
  it("sends each event once and in order with two workers claiming the same endpoints", async () => {
    receiver = await startReceiver();
    store = await newStore("webhooks-pair");
    // No agent runs here: no runner child to start on either instance.
    const env = { WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: "true", RUNNER_EMBEDDED: "false" };
    const a = await engineServer(store, env, "webhooks-a");
    servers.push(a);
    const b = await engineServer(store, env, "webhooks-b");
    servers.push(b);
    const { token, wsId } = await workspaceOn(a);
    const urls = [`${receiver.url}/one`, `${receiver.url}/two`];
    for (const url of urls) {
      const created = await a.call("POST", `/api/workspaces/${wsId}/webhooks`, { token, json: { url, events: ["task.created"] } });
      expect(created.status).toBe(201);
    }
    const count = 24;
    // Written alternately through both instances, several at a time: both workers are woken for each.
    for (let i = 0; i < count; i += 4)
      await Promise.all([0, 1, 2, 3].map((k) => newTask((k % 2 ? b : a).call, token, wsId, { title: `task ${i + k}` })));
    for (const path of ["/hook/one", "/hook/two"]) {
      const got = await eventually(
        async () => {
          const here = receiver!.received.filter((entry) => entry.path === path);
          return here.length >= count ? here : undefined;
        },
        90_000,
        `${count} deliveries at ${path}`,
      );
      const ids = got.map((entry) => BigInt(entry.event.id));
      expect(new Set(ids).size, "no event twice").toBe(ids.length);
      expect(
        [...ids].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)),
        "in log order",
      ).toEqual(ids);
      expect(new Set(got.map((entry) => entry.headers["x-taskboard-delivery"])).size).toBe(count);
    }
    // Nothing more arrives afterwards (no late duplicate): the deliveries' count matches.
    const page = await b.call("GET", `/api/workspaces/${wsId}/webhooks`, { token });
    for (const hook of page.body) {
      const deliveries = await b.call("GET", `/api/workspaces/${wsId}/webhooks/${hook.id}/deliveries?limit=100`, { token });
      expect(deliveries.body.items).toHaveLength(count);
      expect(
        deliveries.body.items.every((item: { status: string; attempts: number }) => item.status === "succeeded" && item.attempts === 1),
      ).toBe(true);
    }
  }, 300_000);
});
