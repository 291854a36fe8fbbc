// What a stopping server tells the work it still holds (lib/server/shutdown.ts). Two phases:
// - draining: event streams end at once with a last `reconnect` event (and a stream opened now gets
//   only that), while the server still answers everything else, above all its embedded runner
//   handing back its runs;
// - closing: the server stops listening; long polls (a remote runner's claim) answer now rather than
//   hold the close for up to 30 s.
// The state lives on globalThis: Next bundles instrumentation.ts (which stops the server) apart from
// the route handlers (which hold the streams), and each bundle has its own copy of this module.

type DrainState = { draining: boolean; streams: Set<() => void>; closing: AbortController };

const state = globalThis as typeof globalThis & { __taskboardDrain?: DrainState };

function shared(): DrainState {
  state.__taskboardDrain ??= { draining: false, streams: new Set(), closing: new AbortController() };
  return state.__taskboardDrain;
}

/** True once the server has begun to stop. */
export function draining(): boolean {
  return shared().draining;
}

/**
 * `end` runs when the server begins to stop, at once if it already has. Returns the way to forget
 * it (the stream ended by itself).
 */
export function onDrain(end: () => void): () => void {
  const { streams, draining } = shared();
  if (draining) {
    queueMicrotask(end);
    return () => {};
  }
  streams.add(end);
  return () => streams.delete(end);
}

/** Aborted when the server stops listening: a long poll answers at once. */
export function closingSignal(): AbortSignal {
  return shared().closing.signal;
}

/** Phase one: every open stream is told to reconnect and ended. Returns how many there were. */
export function beginDrain(): number {
  const drain = shared();
  drain.draining = true;
  const ends = [...drain.streams];
  drain.streams.clear();
  for (const end of ends) {
    try {
      end();
    } catch (error) {
      console.error(`[taskboard] ending an event stream: ${(error as Error).message}`);
    }
  }
  return ends.length;
}

/** Phase two: long polls answer now. */
export function beginClose() {
  shared().closing.abort();
}
