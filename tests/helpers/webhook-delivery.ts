import type { startReceiver } from "../fixtures/webhook-receiver";

// Shared by the webhook delivery tests (tests/api/webhook-delivery*.test.ts): each starts a server of its
// own with short retry settings (the retry window is 6 s here instead of 24 h).
// WEBHOOKS_ALLOW_PRIVATE_ADDRESSES=true lets it reach the receiver on 127.0.0.1, except on the guard's server.

export const FAST_RETRIES = {
  WEBHOOKS_ALLOW_PRIVATE_ADDRESSES: "true",
  WEBHOOK_RETRY_BASE_SECONDS: "0.2",
  WEBHOOK_RETRY_MAX_DELAY_SECONDS: "0.5",
  WEBHOOK_RETRY_WINDOW_SECONDS: "6",
};

// Starting a server takes long on a loaded machine; waits are generous, never asserted on.
export const SLOW = 300_000;
export const WAIT = 90_000;

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** What the receiver got at one path, in arrival order. */
export const receivedAt = (receiver: Receiver, path: string) => receiver.received.filter((entry) => entry.path === path);
