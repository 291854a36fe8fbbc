import { z } from "zod";
import { ASSIGNEE_KINDS, MAX_ASSIGNEES } from "@/lib/tasks/columns";

// Who a task belongs to and when it is due: the request and response pieces lib/tasks/schemas.ts
// puts into the task's bodies and its response (kept apart only for that file's length).

/** `me`, a member's user id or an agent profile's id: only the tasks assigned to them. */
export const assigneeFilter = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .optional()
  .describe("Only tasks assigned to this one: `me` (the caller), a member's user id or an agent profile's id.");

export const assigneeKind = z.enum(ASSIGNEE_KINDS).describe("`user`: a member of the workspace; `agent`: one of its agent profiles.");

export const assigneeRef = z.object({ kind: assigneeKind, id: z.string().trim().min(1).max(100) });

// The whole list, replacing the task's: each a member or an agent profile of the workspace (422 at
// the entry otherwise, lib/tasks/assignees.ts), each once.
export const assignees = z
  .array(assigneeRef)
  .max(MAX_ASSIGNEES)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((entry, index) => {
      const key = `${entry.kind}:${entry.id}`;
      if (seen.has(key)) ctx.addIssue({ code: "custom", path: [index], message: "Assigned twice in the list", input: entry });
      seen.add(key);
    });
  })
  .describe(
    `Who the task belongs to, at most ${MAX_ASSIGNEES}: members (kind user) and agent profiles (kind agent) of the workspace. ` +
      "Replaces the whole list. Assigning an agent profile to a task in todo or in_progress starts a run of it, once " +
      "(the workspace's auto_start_assigned).",
  );

export const dueAt = z.iso
  .datetime({ offset: true })
  .nullable()
  .describe("When the task is due: an ISO 8601 timestamp (with Z or an offset), or null for none.");

export const taskAssignee = z.object({
  kind: assigneeKind,
  id: z.string().describe("The user's id (kind user) or the agent profile's id (kind agent)."),
  name: z.string().describe("What to show: the member's display name (else username) or the profile's name."),
});
export type TaskAssignee = z.output<typeof taskAssignee>;
