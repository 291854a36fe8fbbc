import { Webhooks } from "@octokit/webhooks";
import { z } from "zod";

// The first step of POST /api/webhooks/github: is this delivery from GitHub? Nothing may be stored
// before it says yes. The answer carries what the caller records for idempotence, so storing a
// delivery is one `INSERT … ON CONFLICT (delivery_id) DO NOTHING`: no row inserted means a redelivery.

export type VerifiedDelivery = {
  /** X-GitHub-Delivery: the same for a redelivery of one event. */
  delivery_id: string;
  /** X-GitHub-Event, e.g. "pull_request". */
  event: string;
  action: string | null;
  installation_id: number | null;
  payload: unknown;
};

export type WebhookVerification = { ok: true; delivery: VerifiedDelivery } | { ok: false; status: 401 | 400; reason: string };

const deliveryHeaders = z.object({
  event: z.string().regex(/^[a-z_]+$/, "an event name"),
  delivery_id: z.string().min(1).max(100),
});

const envelope = z.object({
  action: z.string().optional(),
  installation: z.object({ id: z.int() }).optional(),
});

type HeaderSource = { get(name: string): string | null };

/**
 * What is refused from the headers alone: no secret to verify with, or no signature to verify.
 * The route asks this before reading a byte of the body (null: go on and read it).
 */
export function unverifiableDelivery(headers: HeaderSource, secret: string | null): string | null {
  if (!secret) return "GITHUB_WEBHOOK_SECRET is not set, so no delivery can be verified";
  if (!headers.get("x-hub-signature-256")) return "X-Hub-Signature-256 is missing";
  return null;
}

export async function verifyWebhookDelivery(rawBody: string, headers: HeaderSource, secret: string | null): Promise<WebhookVerification> {
  const unverifiable = unverifiableDelivery(headers, secret);
  if (unverifiable || !secret) return { ok: false, status: 401, reason: unverifiable ?? "" };
  const signature = headers.get("x-hub-signature-256")!;
  if (!(await verifiedBy(secret, rawBody, signature))) return { ok: false, status: 401, reason: "X-Hub-Signature-256 does not match" };
  const named = deliveryHeaders.safeParse({ event: headers.get("x-github-event"), delivery_id: headers.get("x-github-delivery") });
  if (!named.success) return { ok: false, status: 400, reason: "X-GitHub-Event or X-GitHub-Delivery is missing or malformed" };
  let payload: unknown;
  try {
    payload = JSON.parse(rawBody);
  } catch {
    return { ok: false, status: 400, reason: "The body is not JSON" };
  }
  const head = envelope.safeParse(payload);
  if (!head.success) return { ok: false, status: 400, reason: "The body is not a webhook payload" };
  return {
    ok: true,
    delivery: { ...named.data, action: head.data.action ?? null, installation_id: head.data.installation?.id ?? null, payload },
  };
}

const verifiers = new Map<string, Webhooks>();

// @octokit/webhooks compares in constant time and rejects anything but "sha256=<64 hex>".
async function verifiedBy(secret: string, rawBody: string, signature: string): Promise<boolean> {
  let webhooks = verifiers.get(secret);
  if (!webhooks) verifiers.set(secret, (webhooks = new Webhooks({ secret })));
  try {
    return await webhooks.verify(rawBody, signature);
  } catch {
    return false;
  }
}
