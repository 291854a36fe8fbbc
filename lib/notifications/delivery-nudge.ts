// New deliveries wake the notifications worker of this instance at once. It wakes on every event
// too, but a notification is written by a reaction *after* its event, so that wake-up can come
// before the delivery exists, and the worker would sleep until its idle poll (30 s).

const listeners = new Set<() => void>();

export function nudgeDeliveries(): void {
  for (const listener of listeners) listener();
}

export function onDeliveriesNudge(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
