import { z } from "zod";
import { queryInt } from "@/lib/platform/schema-primitives";
import { ACTOR_TYPES, EVENT_TYPES } from "@/lib/events/event-types";
import { eventCursor } from "@/lib/events/schemas";

// A task's activity: its entries of the workspace event log, newest first (the operation: lib/openapi/operations/dependencies.ts).

export const activityQuery = z.object({
  before: eventCursor
    .optional()
    .describe("Entries older than this one (the `next_before` of the previous page); the newest when left out."),
  limit: queryInt(z.int().min(1).max(100)).default(20).describe("Page size, 1 to 100."),
});

export const activityItem = z.object({
  id: eventCursor.describe("The event's id in the workspace event log."),
  type: z.enum(EVENT_TYPES),
  at: z.string().describe("When it happened (ISO 8601, UTC)."),
  actor: z
    .object({
      kind: z.enum(ACTOR_TYPES),
      id: z.string().nullable().describe("The user (for an agent: the user its token acts for)."),
      name: z.string().nullable(),
    })
    .nullable()
    .describe("Who did it; null for the server itself (the runner, the scheduler, GitHub webhooks)."),
  summary: z.string().describe("One line in words, e.g. `Moved to Done`, `Now blocked by #3 “Write docs”`."),
  data: z.unknown().describe("The event's payload as the event log holds it (see GET …/events)."),
});

export const activityResponse = z.object({
  items: z.array(activityItem),
  next_before: eventCursor.nullable().describe("Pass as `before` for the next (older) page; null when there is none."),
});
export type ActivityItem = z.output<typeof activityItem>;
