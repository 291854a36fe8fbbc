import type { Db } from "@/lib/db/client";
import type { DataMatch } from "@/lib/events/consume-log";
import type { EventType, WorkspaceEvent } from "@/lib/events/event-types";

// A reaction: what the board does because a change was committed (docs/architecture.md,
// "Reactions"). It reads the workspace event log from its own cursor (lib/reactions/run-reactions.ts)
// and is never called by the domain function whose change it follows. `handle` may throw: the event
// is tried again later with back-off and the failure shows as the reaction's `last_error`. It must
// therefore be safe to run twice for one event (each one below checks the state it would change).

export interface Reaction {
  /** Stable: it keys the reaction's cursor rows (reaction_cursors.reaction). */
  name: string;
  /** What it does, for the workspace settings page. */
  description: string;
  /** The event types it reads; its cursor passes over every other event without calling it. */
  types: readonly EventType[];
  /** Narrower still, in SQL: a busy run's many log events pass without a call. */
  match?: DataMatch;
  handle: (db: Db, event: WorkspaceEvent) => Promise<void>;
}
