// Tells this process's delivery worker to look for work now (a new endpoint, a re-enabled one, a
// redelivery), instead of at its next timer. On globalThis: Next bundles routes and
// instrumentation separately. Other instances need no nudge: the request that made the work is
// served by an instance whose own worker takes it.

const state = globalThis as typeof globalThis & { __taskboardWebhookNudge?: () => void };

export function nudgeDeliveryWorker() {
  state.__taskboardWebhookNudge?.();
}

export function onDeliveryNudge(listener: () => void) {
  state.__taskboardWebhookNudge = listener;
}
