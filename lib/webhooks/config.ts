import { positiveInt, positiveNumber } from "@/lib/config";

// The delivery worker's settings from the environment (docs/webhooks.md and docs/configuration.md list them).

/** WEBHOOKS_ALLOW_PRIVATE_ADDRESSES=true lets deliveries reach loopback and private addresses (local development). */
export function allowPrivateAddresses(): boolean {
  return process.env.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES === "true";
}

/** How long one attempt may take, connection to last byte. */
export function attemptTimeoutMs(): number {
  return positiveNumber(process.env.WEBHOOK_TIMEOUT_SECONDS, 10) * 1000;
}

/** The first retry's delay; each further one doubles, up to retryMaxDelayMs. */
export function retryBaseMs(): number {
  return positiveNumber(process.env.WEBHOOK_RETRY_BASE_SECONDS, 30) * 1000;
}

export function retryMaxDelayMs(): number {
  return positiveNumber(process.env.WEBHOOK_RETRY_MAX_DELAY_SECONDS, 3600) * 1000;
}

/** A delivery still failing this long after its first attempt disables its endpoint. */
export function retryWindowMs(): number {
  return positiveNumber(process.env.WEBHOOK_RETRY_WINDOW_SECONDS, 24 * 3600) * 1000;
}

/** Deliveries kept per endpoint (the newest; pending ones always). */
export function deliveriesKept(): number {
  return positiveInt(process.env.WEBHOOK_DELIVERIES_KEPT, 500);
}

/** Endpoints one instance delivers to at once (each in its own order). */
export function deliveryConcurrency(): number {
  return positiveInt(process.env.WEBHOOK_CONCURRENCY, 4);
}
