import { z } from "zod";
import { queryInt } from "@/lib/platform/schema-primitives";
import { taskParams } from "@/lib/tasks/schemas";

// A task's comments (issue #37). A page is the newest `limit` comments before a cursor, oldest
// first within the page, so a conversation reads top to bottom and "older" is one request back.

export const COMMENT_MAX_CHARS = 20_000;
export const COMMENT_PAGE = { default: 50, max: 100 };

export const commentParams = taskParams.extend({ comment_id: z.string() });

export const commentBody = z.object({
  body: z
    .string()
    .max(COMMENT_MAX_CHARS)
    .refine((text) => text.trim().length > 0, "The comment is empty")
    .describe("Markdown, 1 to 20,000 characters. `@username` mentions a member; `@agent-name` starts that agent profile on the task."),
});

export const listCommentsQuery = z.object({
  before: z.string().min(1).max(100).optional().describe("A comment's id: the page of comments older than it (`next_before`)."),
  limit: queryInt(z.int().min(1).max(COMMENT_PAGE.max)).default(COMMENT_PAGE.default).describe("Page size, 1 to 100."),
});

export const COMMENT_AUTHOR_KINDS = ["user", "agent"] as const;

export const commentResponse = z.object({
  id: z.string(),
  task_id: z.string(),
  author: z.object({
    kind: z.enum(COMMENT_AUTHOR_KINDS),
    id: z.string().describe("The user; for an agent, its profile (or, for a run without one, the run's execution)."),
    name: z.string(),
  }),
  body: z.string(),
  mentions: z.array(z.string()).describe("The ids of the members the comment mentions (@username)."),
  created_at: z.string(),
  updated_at: z.string(),
  edited: z.boolean(),
});
export type CommentResponse = z.output<typeof commentResponse>;

export const commentPage = z.object({
  items: z.array(commentResponse).describe("Oldest first (newest last)."),
  next_before: z.string().nullable().describe("Pass as `before` for the page of older comments; null when there is none."),
});

export const deletedCommentEvent = z.object({ id: z.string(), task_id: z.string() });
