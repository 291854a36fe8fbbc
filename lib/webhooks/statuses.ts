// The statuses of a webhook delivery, listed once. No zod here: the browser imports this file.
//   pending   — waiting for its (next) attempt;
//   succeeded — the endpoint answered 2xx;
//   failed    — given up: a redelivery's one attempt failed, or the retry window ran out;
//   skipped   — a gap: events deleted by the log's retention before they could be sent.

export const DELIVERY_STATUSES = ["pending", "succeeded", "failed", "skipped"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const DELIVERY_STATUS = Object.fromEntries(DELIVERY_STATUSES.map((status) => [status, status])) as {
  readonly [K in DeliveryStatus]: K;
};

/** `events: ["*"]`: every event type, including types added later. */
export const ALL_EVENTS = "*";
