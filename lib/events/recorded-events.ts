import { AsyncLocalStorage } from "node:async_hooks";

// What a request recorded in the event log: per workspace, its newest event id and the event types.
// The route wrappers use it to wait, briefly, for the reactions to those events (a dependant started,
// the task moved) before answering, so a client sees their effect in the answer's wake, as it did
// when they were called inline. Outside a request (runner, workers) nothing is tracked.

export interface Recorded {
  lastId: bigint;
  types: Set<string>;
}

const shared = globalThis as typeof globalThis & { __taskboardRecorded?: AsyncLocalStorage<Map<string, Recorded>> };
const store = (shared.__taskboardRecorded ??= new AsyncLocalStorage<Map<string, Recorded>>());

/** Runs `work`, collecting what it records (a transaction that rolls back may leave an id that never commits). */
export async function trackingRecorded<T>(work: () => Promise<T>): Promise<{ result: T; recorded: Map<string, Recorded> }> {
  const recorded = new Map<string, Recorded>();
  const result = await store.run(recorded, work);
  return { result, recorded };
}

export function noteRecorded(workspaceId: string, lastId: string, types: readonly string[]) {
  const recorded = store.getStore();
  if (!recorded) return;
  const entry = recorded.get(workspaceId) ?? { lastId: BigInt(0), types: new Set<string>() };
  const id = BigInt(lastId);
  if (id > entry.lastId) entry.lastId = id;
  for (const type of types) entry.types.add(type);
  recorded.set(workspaceId, entry);
}
