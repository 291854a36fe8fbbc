import { z } from "zod";
import { ACTOR_TYPES, EVENT_TYPES, type WorkspaceEvent } from "@/lib/events/event-types";

// The event stream's request and the shape of one event of the workspace event log.

export const eventCursor = z
  .string()
  .regex(/^\d{1,18}$/, "an event id (digits)")
  .describe("An event id: the `cursor` of GET …/board, or the `id` of the last event received.");

export const eventsQuery = z.object({
  after: eventCursor
    .optional()
    .describe("Send the events after this one (the board's `cursor`). Last-Event-ID wins over it; neither: from now."),
});

export const workspaceEvent = z.object({
  id: eventCursor.describe("The event's id in the workspace event log; also the SSE `id:`. Increases in commit order per workspace."),
  type: z.enum(EVENT_TYPES),
  workspace_id: z.string(),
  task_id: z.string().nullable().describe("The task the event concerns, if any."),
  actor: z
    .object({ type: z.enum(ACTOR_TYPES), user_id: z.string().nullable(), username: z.string().nullable() })
    .describe("Who made the change: a user, an agent's token (acting for user_id), or the server itself (system)."),
  at: z.string().describe("When the change was written (ISO 8601, UTC)."),
  data: z
    .unknown()
    .describe(
      "task.created/updated/moved: the task (TaskResponse); task.deleted: {id}; question.created/answered: the question; " +
        "task.dependency_added/removed: {task, blocker} (each {id, number, title}; logged once for each of the two tasks); " +
        "question.deleted: {id, task_id}; comment.created/updated: the comment; comment.deleted: {id, task_id}; run.updated: the task run; execution.updated: the execution; " +
        "execution.log (streams only, never webhooks): the execution after new log entries, with `log` {offset, entries} when the batch is small; " +
        "runner.updated (streams only, never webhooks; task_id null): {id, name, status} of a runner that came online or went offline, " +
        "recorded in each workspace with queued runs: read their waiting_for_runner again.",
    ),
}) satisfies z.ZodType<WorkspaceEvent>;
