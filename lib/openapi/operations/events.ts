import type { OperationSpec } from "@/lib/openapi/types";
import { eventsQuery, workspaceEvent } from "@/lib/events/schemas";
import { workspaceParams } from "@/lib/workspaces/schemas";

export const eventOperations: OperationSpec[] = [
  {
    method: "get",
    path: "/api/workspaces/{id}/events",
    operationId: "streamWorkspaceEvents",
    summary:
      "The workspace event log as Server-Sent Events (text/event-stream). Each message has `id:` (the event id), `event:` " +
      "(its type) and `data:` (the event as JSON). Start from the board's `cursor` with `?after=`; a reconnect's `Last-Event-ID` " +
      "resumes after that event. A reader further behind than the log keeps gets `event: reset` (refetch, then go on from its " +
      "`id`). Comment lines are heartbeats; the stream closes within one heartbeat once the credential or membership is revoked. " +
      "A user holds at most 20 streams at once (EVENT_STREAMS_PER_USER); a client that reads nothing while its buffer is full is " +
      "dropped after a heartbeat, and resumes with Last-Event-ID. A stopping server (a deploy) ends the stream with `event: reconnect` " +
      "(no id; data `{reason, retry_ms}`): connect again after retry_ms with Last-Event-ID, to another instance or the restarted server.",
    tags: ["events"],
    params: workspaceParams,
    query: eventsQuery,
    responses: {
      200: {
        description: "An open text/event-stream; each message's data is one event",
        schema: workspaceEvent,
        contentType: "text/event-stream",
      },
      429: { description: "The user has too many event streams open already; see Retry-After" },
    },
  },
];
