// The workspace event log's vocabulary, shared by the server and the browser. No zod here: the
// browser imports this file (like lib/tasks/columns.ts) and should not pull in a validation library.

/** Every type an event in the log can have. */
export const EVENT_TYPES = [
  "task.created",
  "task.updated",
  "task.moved",
  "task.deleted",
  "task.dependency_added",
  "task.dependency_removed",
  "question.created",
  "question.answered",
  "question.deleted",
  "comment.created",
  "comment.updated",
  "comment.deleted",
  "run.updated",
  "execution.updated",
  "execution.log",
  "runner.updated",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/**
 * For the event streams only: a run's new log entries (and its record, whose line_count and
 * last_activity_at they change), and a runner coming online or going away (which changes why the
 * workspace's queued runs wait). A busy agent makes a log event a second, so they wake no
 * background worker, reach no webhook and no reaction, and stay out of a task's history; a runner's
 * change is recorded only in the workspaces that have queued runs at the time, so it is no record
 * of the runner a webhook could follow (docs/events.md).
 */
export const STREAM_ONLY_EVENT_TYPES: readonly EventType[] = ["execution.log", "runner.updated"];

/** What webhooks may subscribe to, and what `["*"]` means for them. */
export const DELIVERABLE_EVENT_TYPES = EVENT_TYPES.filter((type) => !STREAM_ONLY_EVENT_TYPES.includes(type));

/**
 * Not a logged event: the stream sends it when the reader is further behind than the log keeps
 * (or its cursor is unknown). Its `id` is the cursor to go on from, after refetching.
 */
export const RESET_EVENT = "reset";

/**
 * Not a logged event either: the last one of a stream whose server is stopping (a deploy, SIGTERM).
 * It has no `id`, so the reader's cursor stays the last event it got; it connects again, to another
 * instance or the restarted server, in about `retry_ms`, from that cursor.
 */
export const RECONNECT_EVENT = "reconnect";

export const ACTOR_TYPES = ["user", "agent", "system"] as const;

/** Who made a change: a person (any of their credentials), an agent's token, or the server itself. */
export interface EventActor {
  type: (typeof ACTOR_TYPES)[number];
  user_id: string | null;
  username: string | null;
}

/** One entry of the log, as streams (and later webhooks) send it. `id` is the log's cursor. */
export interface WorkspaceEvent<Data = unknown> {
  id: string;
  type: EventType;
  workspace_id: string;
  task_id: string | null;
  actor: EventActor;
  at: string;
  data: Data;
}
