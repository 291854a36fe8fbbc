import { z } from "zod";
import { username } from "@/lib/users/schemas";
import { floatNumber } from "@/lib/platform/schema-primitives";

/** A member's role: owner (everything), member (the board's work), viewer (reads only; docs/SECURITY.md). */
export const memberRole = z.enum(["owner", "member", "viewer"]);

export const workspaceParams = z.object({ id: z.string() });

export const memberParams = workspaceParams.extend({ user_id: z.string() });

export const createWorkspaceBody = z.object({ name: z.string().trim().min(1).max(200) });

export const workspace = z.object({
  id: z.string(),
  name: z.string(),
  auto_start_unblocked: z
    .boolean()
    .describe("When a task's last open blocker moves to done, start the default agent on it if it is in todo (default false)."),
  auto_move_tasks: z
    .boolean()
    .describe(
      "Board automation (default true): a run's start moves its task from backlog or todo to in_progress; a successful run whose branch has changes moves it from in_progress to in_review.",
    ),
  auto_start_assigned: z
    .boolean()
    .describe(
      "Assigning an agent profile to a task in todo or in_progress starts a run of that profile, once per assignment (default true).",
    ),
  max_concurrent_runs: z
    .int()
    .nullable()
    .describe("At most this many of the workspace's runs hold a runner at once; more wait queued (null: no cap; docs/runners.md)."),
  slack_channel: z
    .string()
    .nullable()
    .describe(
      "The Slack channel (its id, e.g. C0123ABCD) agents' questions are posted to, when the server has a Slack app (docs/slack.md); null: none.",
    ),
  question_escalation_minutes: z
    .number()
    .describe(
      "An open question nobody answered for this many minutes notifies every member who can answer (default 30; 0: at once; docs/notifications.md).",
    ),
  created_at: z.string(),
  updated_at: z.string(),
});

export const updateWorkspaceBody = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  auto_start_unblocked: z.boolean().optional(),
  auto_move_tasks: z.boolean().optional(),
  auto_start_assigned: z.boolean().optional(),
  max_concurrent_runs: z.int().min(1).max(10_000).nullable().optional(),
  slack_channel: z
    .string()
    .trim()
    .regex(/^[CG][A-Z0-9]{2,30}$/, "a Slack channel id, like C0123ABCD (the channel's details in Slack show it)")
    .nullable()
    .optional(),
  question_escalation_minutes: floatNumber().min(0).max(10_080).optional(),
});

export const workspaceWithRole = workspace.extend({ role: memberRole });

export const addMemberBody = z.object({
  username,
  role: memberRole.default("member"),
});

export const member = z.object({
  user_id: z.string(),
  username: z.string(),
  display_name: z.string().nullable(),
  role: memberRole,
  created_at: z.string(),
});
