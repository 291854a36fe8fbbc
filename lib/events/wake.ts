import { AsyncResource } from "node:async_hooks";
import { EventEmitter } from "node:events";
import { connection } from "@/lib/db/client";
import { databaseUrl } from "@/lib/config";
import { startPostgresRelay } from "@/lib/events/postgres-relay";

// Wakes the event streams of a workspace when its log has new events. The log itself is the
// message: a wake-up carries only the workspace id, and a stream that misses one catches up at its
// next wake-up or heartbeat, because it reads from its cursor. The wake-ups come from the log's
// NOTIFY trigger (migration workspace_event_log), delivered at commit: on PGlite by the embedded
// database itself, on PostgreSQL through one LISTEN connection per instance (postgres-relay.ts).

export const EVENTS_CHANNEL = "taskboard_events";
/** Every stream listens for this too: the relay lost its connection and notifications may be lost. */
const ANY = "*";
/** Every wake-up of any workspace is also emitted here, for readers of every log (the webhook worker). */
const EVERY_WORKSPACE = "**";

const state = globalThis as typeof globalThis & { __taskboardWake?: EventEmitter; __taskboardWakeListening?: Promise<void> };

function bus(): EventEmitter {
  if (!state.__taskboardWake) {
    state.__taskboardWake = new EventEmitter();
    // One listener per open stream; many is normal, not a leak.
    state.__taskboardWake.setMaxListeners(0);
  }
  return state.__taskboardWake;
}

// A listener runs in the async context it subscribed in: the notification arrives in whichever
// request's query was running when it came (on PGlite, inside that request's commit), and a
// background worker it wakes must not do its work as part of that request (its statements counted
// in the request's x-sql-statements, its events recorded with the request's actor).

/**
 * Calls `wake` whenever the workspace's log may have grown, with true when it grew only by
 * stream-only events; returns the unsubscribe function.
 */
export function onWorkspaceEvents(workspaceId: string, listener: (logOnly?: boolean) => void): () => void {
  const wake = AsyncResource.bind(listener);
  bus().on(workspaceId, wake);
  bus().on(ANY, wake);
  return () => {
    bus().off(workspaceId, wake);
    bus().off(ANY, wake);
  };
}

/**
 * The same, but not for wake-ups that carried only stream-only events (a run's live log): for a
 * waiter on a change of state (a run's heartbeat waiting for a cancel), which an agent's printing
 * would otherwise wake many times a second.
 */
export function onWorkspaceChanges(workspaceId: string, listener: () => void): () => void {
  return onWorkspaceEvents(workspaceId, (logOnly?: boolean) => {
    if (!logOnly) listener();
  });
}

/** Calls `wake` whenever any workspace's log may have grown by more than a run's live log; returns the unsubscribe function. */
export function onAnyWorkspaceEvents(listener: () => void): () => void {
  const wake = AsyncResource.bind(listener);
  bus().on(EVERY_WORKSPACE, wake);
  bus().on(ANY, wake);
  return () => {
    bus().off(EVERY_WORKSPACE, wake);
    bus().off(ANY, wake);
  };
}

/**
 * A notification of the log: the workspace id, then " log" when the events were only stream-only
 * ones (execution.log, runner.updated: STREAM_ONLY_EVENT_TYPES), which streams read and the
 * background workers ignore.
 */
export function wakeWorkspace(payload: string) {
  const [workspaceId, only] = payload.split(" ");
  bus().emit(workspaceId, only === "log");
  if (only !== "log") bus().emit(EVERY_WORKSPACE);
}

export function wakeEveryWorkspace() {
  bus().emit(ANY);
}

/** Starts listening for the log's notifications (once per process). */
export function startEventListener(): Promise<void> {
  state.__taskboardWakeListening ??= (async () => {
    const { kind, listen } = await connection();
    if (kind === "postgresql")
      await startPostgresRelay(databaseUrl()!, EVENTS_CHANNEL, { wake: wakeWorkspace, connected: wakeEveryWorkspace });
    else await listen!(EVENTS_CHANNEL, wakeWorkspace);
  })().catch((error) => {
    state.__taskboardWakeListening = undefined;
    throw error;
  });
  return state.__taskboardWakeListening;
}
