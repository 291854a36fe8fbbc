import { EventEmitter } from "node:events";

// Workspace events for live boards. Domain code calls publishEvent() after a change is committed;
// the SSE route (GET /api/workspaces/{id}/events) subscribes. Delivery here is in-process; with
// PostgreSQL, lib/events/postgres-relay.ts forwards events between instances (LISTEN/NOTIFY).

export type EventType =
  | "task.created"
  | "task.updated"
  | "task.moved"
  | "task.deleted"
  | "question.created"
  | "question.answered"
  | "question.deleted"
  | "run.updated"
  | "execution.updated";

export interface WorkspaceEvent {
  type: EventType;
  workspace_id: string;
  data: unknown;
}

const state = globalThis as typeof globalThis & { __taskboardEvents?: EventEmitter };

export function localBus(): EventEmitter {
  if (!state.__taskboardEvents) {
    state.__taskboardEvents = new EventEmitter();
    // One listener per open board; many boards is normal, not a leak.
    state.__taskboardEvents.setMaxListeners(0);
  }
  return state.__taskboardEvents;
}

type Forwarder = (event: WorkspaceEvent) => void;
const relay = globalThis as typeof globalThis & { __taskboardEventForwarder?: Forwarder };

/** Lets the PostgreSQL relay send each local event to the other instances. */
export function setEventForwarder(forward: Forwarder | undefined) {
  relay.__taskboardEventForwarder = forward;
}

export function publishEvent(workspaceId: string, type: EventType, data: unknown) {
  const event: WorkspaceEvent = { type, workspace_id: workspaceId, data };
  localBus().emit(workspaceId, event);
  relay.__taskboardEventForwarder?.(event);
}
