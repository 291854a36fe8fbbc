// Tells this process's notification worker that deliveries were just committed, instead of leaving
// them to the next event or timer: the worker wakes on the same event as the reaction that creates
// them, looks before their insert commits, and would otherwise sleep with them due. On globalThis:
// Next bundles routes and instrumentation separately. Reactions run on every instance, so the one
// that made the deliveries nudges its own worker.

const state = globalThis as typeof globalThis & { __taskboardNotificationNudge?: () => void };

export function nudgeNotificationWorker() {
  state.__taskboardNotificationNudge?.();
}

export function onNotificationNudge(listener: () => void): () => void {
  state.__taskboardNotificationNudge = listener;
  return () => {
    if (state.__taskboardNotificationNudge === listener) state.__taskboardNotificationNudge = undefined;
  };
}
