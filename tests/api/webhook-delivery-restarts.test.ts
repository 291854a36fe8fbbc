import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineServer, eventually, newStore, newTask, workspaceOn, type EngineServer } from "../helpers/engine";
import { FAST_RETRIES, receivedAt, type Receiver, SLOW, WAIT } from "../helpers/webhook-delivery";
import { startReceiver, verifies } from "../fixtures/webhook-receiver";

// Webhook delivery where each test starts servers of its own: a restart, sealed secrets across starts,
// and the SSRF guard (a server without WEBHOOKS_ALLOW_PRIVATE_ADDRESSES). No shared server here.

let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
}, SLOW);

afterAll(async () => {
  await receiver?.stop();
}, SLOW);

const at = (path: string) => receivedAt(receiver, path);
// No agent runs here: no runner child to start on any server.
const NO_RUNNER = { RUNNER_EMBEDDED: "false" };

describe("webhook delivery across a restart, and the SSRF guard", () => {
  it(
    "delivers a delivery that was pending when the server stopped",
    async () => {
      const own = await newStore("webhooks-restart");
      // An 8 s first retry (the maximum delay too: FAST_RETRIES caps it at 0.5 s), so the delivery is
      // still waiting for it when the server stops. With the 0.5 s cap, a slow machine's stop came
      // after the retry had been sent and before its answer was recorded: the receiver got it twice.
      const env = {
        ...FAST_RETRIES,
        ...NO_RUNNER,
        WEBHOOK_RETRY_BASE_SECONDS: "8",
        WEBHOOK_RETRY_MAX_DELAY_SECONDS: "8",
        WEBHOOK_RETRY_WINDOW_SECONDS: "600",
      };
      let first: EngineServer | undefined = await engineServer(own, env, "webhooks-restart");
      let second: EngineServer | undefined;
      try {
        const { token: admin, wsId } = await workspaceOn(first);
        const hook = await first.call("POST", `/api/workspaces/${wsId}/webhooks`, {
          token: admin,
          json: { url: `${receiver.url}/restart`, events: ["task.created"] },
        });
        receiver.answerWith((entry) => (entry.path === "/hook/restart" && at("/hook/restart").length <= 1 ? 500 : 200));
        await newTask(first.call, admin, wsId, { title: "survives" });
        await eventually(async () => {
          const page = await first!.call("GET", `/api/workspaces/${wsId}/webhooks/${hook.body.id}/deliveries`, { token: admin });
          return page.body.items[0]?.attempts === 1 && page.body.items[0].status === "pending" ? true : undefined;
        }, WAIT);
        await first.stop();
        first = undefined;
        second = await engineServer(own, env, "webhooks-restart-2");
        const delivered = await eventually(
          async () => {
            const page = await second!.call("GET", `/api/workspaces/${wsId}/webhooks/${hook.body.id}/deliveries`, { token: admin });
            return page.body.items[0]?.status === "succeeded" ? page.body.items[0] : undefined;
          },
          WAIT,
          "the pending delivery after the restart",
        );
        expect(delivered.attempts).toBe(2);
        expect(at("/hook/restart").map((entry) => entry.event.data.title)).toEqual(["survives", "survives"]);
      } finally {
        receiver.answerWith(() => 200);
        await first?.stop();
        await second?.stop();
        await own.drop();
      }
    },
    SLOW,
  );

  it(
    "stores secrets sealed; a secret stored in the clear before still signs, and is sealed at the next start",
    async () => {
      const own = await newStore("webhooks-sealed");
      let server: EngineServer | undefined = await engineServer(own, { ...FAST_RETRIES, ...NO_RUNNER }, "webhooks-sealed");
      try {
        const { token: admin, wsId } = await workspaceOn(server);
        const given = "given-secret-0123456789";
        const hook = await server.call("POST", `/api/workspaces/${wsId}/webhooks`, {
          token: admin,
          json: { url: `${receiver.url}/sealed`, events: ["task.created"], secret: given },
        });
        expect(hook.body.secret_hint).toBe("…6789");
        await server.stop();
        server = undefined;
        const [sealed] = await own.sql("SELECT secret FROM webhooks WHERE id = $1", [hook.body.id]);
        expect(String(sealed.secret)).toMatch(/^tbenc:v1:[0-9a-f]{8}:[A-Za-z0-9_-]+$/);
        expect(String(sealed.secret)).not.toContain(given);

        // A row from before sealing existed holds the secret in the clear.
        const old = "plain-old-secret-4321";
        await own.sql("UPDATE webhooks SET secret = $1 WHERE id = $2", [old, hook.body.id]);
        server = await engineServer(own, { ...FAST_RETRIES, ...NO_RUNNER }, "webhooks-sealed-2");
        expect((await server.call("GET", `/api/workspaces/${wsId}/webhooks/${hook.body.id}`, { token: admin })).body.secret_hint).toBe(
          "…4321",
        );
        await newTask(server.call, admin, wsId, { title: "signed with the old secret" });
        const [entry] = await eventually(async () => (at("/hook/sealed").length > 0 ? at("/hook/sealed") : undefined), WAIT);
        expect(verifies(old, entry.body, entry.headers["x-taskboard-signature-256"])).toBe(true);
        await server.stop();
        server = undefined;
        const [resealed] = await own.sql("SELECT secret FROM webhooks WHERE id = $1", [hook.body.id]);
        expect(String(resealed.secret)).toMatch(/^tbenc:v1:/);
        expect(String(resealed.secret)).not.toContain(old);
      } finally {
        await server?.stop();
        await own.drop();
      }
    },
    SLOW,
  );

  it(
    "refuses a host name that resolves to 127.0.0.1 without WEBHOOKS_ALLOW_PRIVATE_ADDRESSES",
    async () => {
      const own = await newStore("webhooks-guard");
      const guarded = await engineServer(own, NO_RUNNER, "webhooks-guard");
      try {
        const { token: admin, wsId } = await workspaceOn(guarded);
        const urls = [
          `http://localhost:${receiver.port}/hook/guard`,
          `http://127.0.0.1:${receiver.port}/hook/guard`,
          `http://[::ffff:127.0.0.1]:${receiver.port}/hook/guard`,
        ];
        const hooks = [];
        for (const url of urls)
          hooks.push((await guarded.call("POST", `/api/workspaces/${wsId}/webhooks`, { token: admin, json: { url, events: ["*"] } })).body);
        await newTask(guarded.call, admin, wsId, { title: "not for loopback" });
        for (const hook of hooks) {
          const refused = await eventually(async () => {
            const page = await guarded.call("GET", `/api/workspaces/${wsId}/webhooks/${hook.id}/deliveries`, { token: admin });
            return page.body.items[0]?.attempts >= 1 ? page.body.items[0] : undefined;
          }, WAIT);
          expect(refused).toMatchObject({ status: "pending", response_code: null });
          expect(refused.error).toMatch(/^Refused: .* private, loopback or reserved address/);
        }
        expect(at("/hook/guard")).toEqual([]);
      } finally {
        await guarded.stop();
        await own.drop();
      }
    },
    SLOW,
  );
});
