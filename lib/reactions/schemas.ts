import { z } from "zod";

// What GET /api/workspaces/{id}/reactions answers: each reaction's progress in the workspace's
// event log and its newest failure, for the workspace's owners.

export const reactionStateResponse = z.object({
  name: z.string().describe("The reaction, e.g. start-unblocked."),
  description: z.string(),
  cursor: z.string().describe("The last event id this reaction has handled (a decimal string)."),
  behind: z
    .number()
    .int()
    .describe(
      "Events in the log after the cursor, of any type but a run's live log (execution.log, which no reaction reads); 0: caught up.",
    ),
  attempts: z.number().int().describe("Failed attempts at the event after the cursor; 0 when the last one succeeded."),
  next_attempt_at: z.string().nullable().describe("When the failing event is tried again."),
  last_error: z.string().nullable().describe("The newest failure, kept after later successes."),
  last_error_at: z.string().nullable(),
  last_error_event_id: z.string().nullable(),
  processed_at: z.string().nullable().describe("When the cursor last moved."),
});

export type ReactionState = z.infer<typeof reactionStateResponse>;
