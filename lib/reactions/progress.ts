import { EventEmitter } from "node:events";

// In-process signals between a request waiting for its reactions (lib/reactions/wait-for-reactions.ts)
// and this process's reactions worker: the request nudges the worker at once (instead of waiting for
// the commit's notification to come back from the database), and the worker tells the request when
// it moved a workspace's cursor (instead of the request's next poll). A move says which reaction's
// cursor and where to, so fifty requests waiting in one workspace learn it without fifty queries.
// On globalThis: Next bundles instrumentation (the worker) and each route (the waiter) separately.

const state = globalThis as typeof globalThis & { __taskboardReactions?: EventEmitter };

function bus(): EventEmitter {
  if (!state.__taskboardReactions) {
    state.__taskboardReactions = new EventEmitter();
    state.__taskboardReactions.setMaxListeners(0);
  }
  return state.__taskboardReactions;
}

/** A reaction's cursor, committed at `cursor`; null: it failed and waits for a retry, which nobody waits for. */
export type CursorMove = { reaction: string; cursor: bigint | null };

export function reactionProgressed(workspaceId: string, moved: CursorMove) {
  bus().emit(workspaceId, moved);
}

export function onReactionProgress(workspaceId: string, listener: (moved: CursorMove) => void): () => void {
  bus().on(workspaceId, listener);
  return () => bus().off(workspaceId, listener);
}

const NUDGE = "nudge";

export function nudgeReactions() {
  bus().emit(NUDGE);
}

export function onReactionsNudge(listener: () => void): () => void {
  bus().on(NUDGE, listener);
  return () => bus().off(NUDGE, listener);
}
