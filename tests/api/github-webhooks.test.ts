import http from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl } from "../helpers/api";
import { type EngineServer, newTask } from "../helpers/engine";
import { githubWebhookServer } from "../helpers/github-webhooks";
import type { FakeGithub } from "../fixtures/fake-github/server";
import { pullRequestPayload } from "../fixtures/fake-github/webhooks";

// POST /api/webhooks/github as an endpoint: signatures checked as GitHub signs them, body limits, methods,
// and a server without a secret. What a delivery does to the board is in github-webhook-effects.test.ts.

const github = githubWebhookServer("github-webhooks");
const { connected, send } = github;
let fake: FakeGithub;
let server: EngineServer;

beforeAll(() => {
  ({ fake, server } = github.started);
});

describe("POST /api/webhooks/github", () => {
  it("refuses a missing or wrong signature with 401 and stores nothing", async () => {
    const { repo, installationId, wsId, token, task } = await connected();
    const created = await newTask(server.call, token, wsId, { title: "signed only" });
    const pull = fake.addPull(repo, { head: "feature", body: `For ${created.id}` });
    const payload = pullRequestPayload(fake.url, "opened", repo, installationId, pull);

    const unsigned = await send("pull_request", payload, { signature: null });
    expect(unsigned.response.status).toBe(401);
    expect((await unsigned.response.json()).detail).toMatch(/X-Hub-Signature-256/);
    const forged = await send("pull_request", payload, { deliveryId: unsigned.deliveryId, signature: `sha256=${"0".repeat(64)}` });
    expect(forged.response.status).toBe(401);
    expect((await task(created.id)).pr_number).toBeNull();

    // The same delivery id signed properly is new to the server: neither refusal stored it.
    const signed = await send("pull_request", payload, { deliveryId: unsigned.deliveryId });
    expect(signed.response.status).toBe(202);
    expect(await signed.response.json()).toEqual({ delivery_id: unsigned.deliveryId, status: "accepted" });
  });

  it("refuses a body larger than GitHub sends with 413, before reading it all", async () => {
    const response = await fetch(`${server.url}/api/webhooks/github`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-github-event": "ping",
        "x-github-delivery": "too-large",
        "x-hub-signature-256": `sha256=${"0".repeat(64)}`,
      },
      body: `{"zen":"${"x".repeat(25 * 1024 * 1024)}"}`,
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ detail: `Request body larger than ${25 * 1024 * 1024} bytes` });
  });

  it("answers 401 without a signature header before reading the body (one that never ends)", async () => {
    const answer = await deliverStreaming(server.url, { "x-github-event": "ping", "x-github-delivery": "unsigned-stream" }, Infinity);
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ detail: "X-Hub-Signature-256 is missing" });
    expect(answer.sent).toBeLessThan(1024 * 1024);
  });

  it("streams a body sent without Content-Length and refuses it with 413 past 25 MiB, without taking it all in", async () => {
    const signed = {
      "x-github-event": "ping",
      "x-github-delivery": "chunked-too-large",
      "x-hub-signature-256": `sha256=${"0".repeat(64)}`,
    };
    const answer = await deliverStreaming(server.url, signed, 200 * 1024 * 1024);
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ detail: `Request body larger than ${25 * 1024 * 1024} bytes` });
    // The answer came once the server had read past the limit, long before the 200 MiB were sent.
    expect(answer.sent).toBeGreaterThan(25 * 1024 * 1024);
    expect(answer.sent).toBeLessThan(60 * 1024 * 1024);
  });

  it("answers other methods 405 with Allow in the API's format", async () => {
    const response = await fetch(`${server.url}/api/webhooks/github`, { method: "GET" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST, OPTIONS");
    expect(await response.json()).toEqual({ detail: "Method Not Allowed" });
  });
});

describe("POST /api/webhooks/github without GITHUB_WEBHOOK_SECRET", () => {
  // The shared server of the API tests has no GitHub settings, so it has no webhook secret either.
  it("answers 401 at once, before reading a body that never ends", async () => {
    const signed = { "x-github-event": "ping", "x-github-delivery": "no-secret", "x-hub-signature-256": `sha256=${"0".repeat(64)}` };
    const answer = await deliverStreaming(baseUrl(), signed, Infinity);
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ detail: "GITHUB_WEBHOOK_SECRET is not set, so no delivery can be verified" });
    expect(answer.sent).toBeLessThan(1024 * 1024);
  });
});

/**
 * POSTs a delivery whose body is streamed (chunked, no Content-Length) in 64 KiB pieces until the
 * answer comes or `limit` bytes were sent (Infinity: never ends by itself). `sent` is how much had
 * been handed to the socket when the answer came.
 */
function deliverStreaming(
  url: string,
  headers: Record<string, string>,
  limit: number,
): Promise<{ status: number; body: unknown; sent: number }> {
  const { port } = new URL(url);
  const chunk = Buffer.alloc(64 * 1024, "x");
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const request = http.request(
      {
        host: "127.0.0.1",
        port,
        path: "/api/webhooks/github",
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
      },
      (response) => {
        answered = true;
        const at = sent;
        let text = "";
        response.on("data", (data) => (text += data));
        response.on("end", () => {
          request.destroy();
          resolve({ status: response.statusCode!, body: JSON.parse(text), sent: at });
        });
      },
    );
    request.on("error", (error) => {
      if (!answered) reject(error);
    });
    const timer = setTimeout(() => {
      request.destroy();
      if (!answered) reject(new Error(`no answer after ${sent} bytes sent`));
    }, 45_000);
    request.on("close", () => clearTimeout(timer));
    request.write('{"zen":"');
    const pump = () => {
      // Starts slowly for a body that never ends: the answer must not wait for it.
      while (!answered && sent < limit) {
        sent += chunk.length;
        const drained = request.write(chunk);
        if (limit === Infinity && sent >= 4 * chunk.length) return void setTimeout(pump, 1000);
        if (!drained) return void request.once("drain", pump);
      }
      if (!answered) request.end('"}');
    };
    pump();
  });
}
