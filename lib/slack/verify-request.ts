import { createHmac, timingSafeEqual } from "node:crypto";

// Slack signs each request it sends (interactions, events) with the app's signing secret: v0, an
// HMAC-SHA256 of `v0:<X-Slack-Request-Timestamp>:<the exact body>`, in X-Slack-Signature. A request
// older than five minutes is refused even when signed, so a captured one cannot be replayed later.
// (Slack's Bolt does the same in its receiver; it owns the HTTP server, so it is not used here.)

/** Slack's replay window. */
export const SLACK_SIGNATURE_WINDOW_SECONDS = 300;

type HeaderSource = { get(name: string): string | null };

/** Why a request cannot be from Slack judging by its headers alone (checked before the body is read), or null. */
export function unverifiableSlackRequest(headers: HeaderSource, signingSecret: string | null, now = Date.now()): string | null {
  if (!signingSecret) return "Slack is not configured on this server (SLACK_SIGNING_SECRET)";
  const timestamp = headers.get("x-slack-request-timestamp");
  if (!headers.get("x-slack-signature") || !timestamp) return "X-Slack-Signature or X-Slack-Request-Timestamp is missing";
  const seconds = Number(timestamp);
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(now / 1000 - seconds) > SLACK_SIGNATURE_WINDOW_SECONDS) {
    return "X-Slack-Request-Timestamp is more than 5 minutes from now: a replayed or delayed request";
  }
  return null;
}

/** Null when the body was signed by Slack with this secret within the window; otherwise why not. */
export function slackSignatureRefusal(rawBody: string, headers: HeaderSource, signingSecret: string | null, now = Date.now()) {
  const unverifiable = unverifiableSlackRequest(headers, signingSecret, now);
  if (unverifiable || !signingSecret) return unverifiable;
  const expected = slackSignature(signingSecret, headers.get("x-slack-request-timestamp")!, rawBody);
  const given = Buffer.from(headers.get("x-slack-signature")!);
  const wanted = Buffer.from(expected);
  return given.length === wanted.length && timingSafeEqual(given, wanted) ? null : "X-Slack-Signature does not match";
}

/** `v0=<hex>`: what Slack sends for this body at this timestamp (tests sign their payloads with it too). */
export function slackSignature(signingSecret: string, timestamp: string, rawBody: string): string {
  return `v0=${createHmac("sha256", signingSecret).update(`v0:${timestamp}:${rawBody}`).digest("hex")}`;
}
