import crypto from "node:crypto";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { allowPrivateAddresses, attemptTimeoutMs } from "@/lib/webhooks/config";
import { resolveTarget } from "@/lib/net/guard-address";

// One HTTP attempt of a delivery: POST the stored body, signed, to the endpoint's checked address.
// A redirect is an answer, not followed (its target was never checked); only 2xx counts as
// delivered. The response body is read up to a small limit and dropped.

const RESPONSE_LIMIT = 64 * 1024;
const USER_AGENT = "Taskboard-Webhooks/1";

export interface AttemptResult {
  ok: boolean;
  responseCode: number | null;
  durationMs: number;
  error: string | null;
}

export interface Outgoing {
  url: string;
  secret: string;
  deliveryId: string;
  eventType: string;
  body: string;
}

/** `sha256=<hex>`: the HMAC-SHA256 of the exact body with the endpoint's secret, as GitHub signs. */
export function signature(secret: string, body: string): string {
  return `sha256=${crypto.createHmac("sha256", secret).update(body).digest("hex")}`;
}

export async function sendDelivery(outgoing: Outgoing): Promise<AttemptResult> {
  const started = performance.now();
  const done = (result: Omit<AttemptResult, "durationMs">): AttemptResult => ({
    ...result,
    durationMs: Math.round(performance.now() - started),
  });
  try {
    const url = new URL(outgoing.url);
    const target = await resolveTarget(url.hostname, allowPrivateAddresses());
    const status = await post(url, target, outgoing);
    if (status >= 200 && status < 300) return done({ ok: true, responseCode: status, error: null });
    const why = status >= 300 && status < 400 ? `redirect (HTTP ${status}) not followed` : `HTTP ${status}`;
    return done({ ok: false, responseCode: status, error: why });
  } catch (error) {
    return done({ ok: false, responseCode: null, error: (error as Error).message || String(error) });
  }
}

function post(url: URL, target: { address: string; family: 4 | 6 }, outgoing: Outgoing): Promise<number> {
  // Connect to the address that was checked, whatever the name resolves to by now.
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all) (callback as (error: null, addresses: { address: string; family: number }[]) => void)(null, [target]);
    else callback(null, target.address, target.family);
  };
  const body = Buffer.from(outgoing.body, "utf8");
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: "POST",
        lookup,
        agent: false,
        timeout: attemptTimeoutMs(),
        headers: {
          "content-type": "application/json",
          "content-length": String(body.length),
          "user-agent": USER_AGENT,
          "x-taskboard-event": outgoing.eventType,
          "x-taskboard-delivery": outgoing.deliveryId,
          "x-taskboard-signature-256": signature(outgoing.secret, outgoing.body),
        },
      },
      (response) => {
        let read = 0;
        response.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read > RESPONSE_LIMIT) response.destroy();
        });
        const finish = () => resolve(response.statusCode ?? 0);
        response.on("end", finish);
        response.on("close", finish);
        response.on("error", finish);
      },
    );
    // The whole attempt, not only idle time, is bounded.
    const deadline = setTimeout(() => request.destroy(new Error(`no answer within ${attemptTimeoutMs() / 1000} s`)), attemptTimeoutMs());
    request.on("timeout", () => request.destroy(new Error(`no answer within ${attemptTimeoutMs() / 1000} s`)));
    request.on("error", reject);
    request.on("close", () => clearTimeout(deadline));
    request.end(body);
  });
}
