import { EventEmitter } from "node:events";

// In-process signal that a reaction moved a workspace's cursor, so a request waiting for its
// reactions (lib/reactions/wait-for-reactions.ts) looks again at once instead of at its next poll.
// On globalThis: Next bundles instrumentation (the worker) and each route (the waiter) separately.

const state = globalThis as typeof globalThis & { __taskboardReactions?: EventEmitter };

function bus(): EventEmitter {
  if (!state.__taskboardReactions) {
    state.__taskboardReactions = new EventEmitter();
    state.__taskboardReactions.setMaxListeners(0);
  }
  return state.__taskboardReactions;
}

export function reactionProgressed(workspaceId: string) {
  bus().emit(workspaceId);
}

export function onReactionProgress(workspaceId: string, listener: () => void): () => void {
  bus().on(workspaceId, listener);
  return () => bus().off(workspaceId, listener);
}
