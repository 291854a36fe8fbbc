import { z } from "zod";
import { queryInt } from "@/lib/platform/schema-primitives";
import { workspaceParams } from "@/lib/workspaces/schemas";
import { QUESTION_STATUS, QUESTION_STATUSES } from "@/lib/questions/statuses";
import { ANSWER_CHANNELS } from "@/lib/questions/answer-channels";

export const MAX_OPTIONS = 4;
export const QUESTION_LIST_LIMIT = { default: 100, max: 500 };

export const questionParams = workspaceParams.extend({ question_id: z.string() });

export const createQuestionBody = z.object({
  content: z.string().trim().min(1).max(10_000),
  task_id: z.string().min(1).describe("A task of this workspace."),
  context: z.string().max(20_000).nullable().default(null),
  options: z
    .array(z.string().trim().min(1).max(500))
    .min(1)
    .max(MAX_OPTIONS)
    .nullable()
    .default(null)
    .describe("Suggested answers, 1 to 4 non-empty strings."),
  priority: z.int().min(0).max(4).default(2).describe("0 is the most urgent."),
});

export const listQuestionsQuery = z
  .object({
    status: z.enum(QUESTION_STATUSES).optional(),
    task_id: z.string().optional(),
    limit: queryInt(z.int().min(1).max(QUESTION_LIST_LIMIT.max).default(QUESTION_LIST_LIMIT.default)),
    before: z
      .string()
      .min(1)
      .optional()
      .describe("With status=answered (newest answer first): the id of the last question of the previous page; the page after it."),
  })
  .refine((query) => !query.before || query.status === QUESTION_STATUS.answered, {
    message: "before pages the answered questions: use it with status=answered",
    path: ["before"],
  });

export const answerQuestionBody = z.object({ answer: z.string().trim().min(1).max(20_000) });

export const questionResponse = z.object({
  id: z.string(),
  workspace_id: z.string(),
  task_id: z.string(),
  task_title: z.string().nullable(),
  content: z.string(),
  context: z.string().nullable(),
  options: z.array(z.string()).max(MAX_OPTIONS).nullable(),
  answer: z.string().nullable(),
  status: z.enum(QUESTION_STATUSES),
  priority: z.int(),
  created_at: z.string(),
  answered_at: z.string().nullable(),
  answered_by: z
    .string()
    .nullable()
    .describe(
      "The user who answered; null while open, for a permission request closed when its run ended, and for answers given before this was recorded.",
    ),
  answered_via: z
    .enum(ANSWER_CHANNELS)
    .nullable()
    .describe(
      "Where the answer came from: board (the browser), api (an API key or access token), mcp (a tool call), push, email or slack; null while open and for answers given before it was recorded.",
    ),
  execution_id: z
    .string()
    .nullable()
    .describe("Set when an agent's permission request raised the question: the answer (one of `options`) resumes that execution."),
});
export type QuestionResponse = z.output<typeof questionResponse>;
