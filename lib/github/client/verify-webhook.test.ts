import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyWebhookDelivery, type WebhookVerification } from "@/lib/github/client/verify-webhook";
import { examplePayload, sendWebhook, signWebhook } from "@/tests/fixtures/fake-github/webhooks";

// Deliveries travel over real HTTP, as GitHub sends them, to a receiver that hands the raw body and
// the headers to verifyWebhookDelivery, as the webhook route will.

const SECRET = "webhook-secret-for-tests";
let receiver: http.Server;
let target: string;
let secret: string | null = SECRET;
const seen: WebhookVerification[] = [];

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
      const result = await verifyWebhookDelivery(Buffer.concat(chunks).toString("utf8"), headers, secret);
      seen.push(result);
      res.writeHead(result.ok ? 202 : result.status, { "content-type": "application/json" });
      res.end(JSON.stringify(result.ok ? { ok: true } : { detail: result.reason }));
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/webhooks/github`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

function prPayload() {
  const payload = examplePayload("pull_request", "opened");
  payload.installation = { id: 77, node_id: "MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uNzc=" };
  payload.pull_request.title = "Fix the login page ✓";
  return payload;
}

describe("verifyWebhookDelivery", () => {
  it("accepts a delivery signed as GitHub signs it and returns the record to store", async () => {
    const { response, deliveryId } = await sendWebhook(target, { event: "pull_request", payload: prPayload(), secret: SECRET });
    expect(response.status).toBe(202);
    const result = seen.at(-1)!;
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.delivery).toMatchObject({ delivery_id: deliveryId, event: "pull_request", action: "opened", installation_id: 77 });
    expect((result.delivery.payload as any).pull_request.title).toBe("Fix the login page ✓");
  });

  it("a redelivery carries the same delivery id (the caller's unique key)", async () => {
    const payload = prPayload();
    const first = await sendWebhook(target, { event: "pull_request", payload, secret: SECRET });
    await sendWebhook(target, { event: "pull_request", payload, secret: SECRET, deliveryId: first.deliveryId });
    const [a, b] = seen.slice(-2);
    expect(a.ok && b.ok && a.delivery.delivery_id === b.delivery.delivery_id).toBe(true);
  });

  it("401 without X-Hub-Signature-256", async () => {
    const { response } = await sendWebhook(target, { event: "pull_request", payload: prPayload(), secret: SECRET, signature: null });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ detail: "X-Hub-Signature-256 is missing" });
  });

  it.each([
    ["another secret", (body: string) => signWebhook("not-the-secret", body)],
    ["another body", (body: string) => signWebhook(SECRET, body + " ")],
    ["the SHA-1 header's format", (body: string) => signWebhook(SECRET, body).replace("sha256=", "sha1=")],
    ["garbage", () => "sha256=zz"],
  ])("401 for a signature made with %s", async (_label, sign) => {
    const payload = prPayload();
    const { response } = await sendWebhook(target, {
      event: "pull_request",
      payload,
      secret: SECRET,
      signature: sign(JSON.stringify(payload)),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ detail: "X-Hub-Signature-256 does not match" });
  });

  it("401 for everything while no webhook secret is set", async () => {
    secret = null;
    try {
      const { response } = await sendWebhook(target, { event: "pull_request", payload: prPayload(), secret: SECRET });
      expect(response.status).toBe(401);
    } finally {
      secret = SECRET;
    }
  });

  it("400 for a signed delivery without its event name or delivery id", async () => {
    const body = JSON.stringify(prPayload());
    const response = await fetch(target, {
      method: "POST",
      headers: { "content-type": "application/json", "x-hub-signature-256": signWebhook(SECRET, body), "x-github-event": "pull_request" },
      body,
    });
    expect(response.status).toBe(400);
  });

  it("a ping (no action, no installation) is accepted", async () => {
    const { response } = await sendWebhook(target, { event: "ping", payload: examplePayload("ping"), secret: SECRET });
    expect(response.status).toBe(202);
    expect(seen.at(-1)).toMatchObject({ ok: true, delivery: { event: "ping", action: null, installation_id: null } });
  });
});
