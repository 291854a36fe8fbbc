import { AsyncLocalStorage } from "node:async_hooks";
import type { EventActor } from "@/lib/events/event-types";

// Who the current request acts for, so that recording an event needs no extra argument threaded
// through every domain function: the route wrappers (lib/api/handler.ts) set it once per request.
// Work outside a request (runner, scheduler, recovery) is the server's own: actor "system".

export const SYSTEM_ACTOR: EventActor = { type: "system", user_id: null, username: null };

// On globalThis: Next bundles instrumentation and each route separately.
const shared = globalThis as typeof globalThis & { __taskboardActor?: AsyncLocalStorage<EventActor> };
const store = (shared.__taskboardActor ??= new AsyncLocalStorage<EventActor>());

export function actingAs<T>(actor: EventActor, work: () => T): T {
  return store.run(actor, work);
}

export function currentActor(): EventActor {
  return store.getStore() ?? SYSTEM_ACTOR;
}
