import type { z } from "zod";
import type { Tx } from "@/lib/db/client";
import { ValidationError, type ValidationEntry } from "@/lib/platform/errors";
import { currentActor } from "@/lib/events/actor";
import { AGENT_START_COLUMNS, type ColumnKey } from "@/lib/tasks/columns";
import type { assignees as assigneesSchema } from "@/lib/tasks/assignee-schemas";

export type AssigneeList = z.output<typeof assigneesSchema>;

/** Who is assigning: for an agent's token its id, so the run it may start follows its own run's rules. */
export interface Assigner {
  agentTokenId: string | null;
}

export const PERSON_ASSIGNING: Assigner = { agentTokenId: null };

/** The assigner for a request's credential: an agent token names itself, anything else is a person's. */
export function assignerOf(caller: { kind: string; tokenId: string }): Assigner {
  return { agentTokenId: caller.kind === "agent" ? caller.tokenId : null };
}

/**
 * Replaces a task's assignees with `list`, in its order, inside the task's transaction (before its
 * event is recorded, so the event carries them). Each must be a member (kind user) or an agent
 * profile (kind agent) of the workspace: 422 at body.assignees[i].id otherwise, the same for a
 * user of another workspace, a profile of another workspace or an id that names nothing, so ids
 * reveal nothing. Rows already there are kept as they are: re-saving the same list changes nothing
 * and starts nothing. A newly assigned agent profile on a task in todo or in_progress is marked
 * `start_pending`; the start-assigned-agents reaction starts its run once and clears the mark.
 * The task's `has_assignees` says whether any are left, so a card without them skips the look-up.
 */
export async function replaceAssignees(
  tx: Tx,
  workspaceId: string,
  taskId: string,
  status: string,
  list: AssigneeList,
  assigner: Assigner,
): Promise<void> {
  await checkAssignees(tx, workspaceId, list);
  const existing = await tx.taskAssignee.findMany({ where: { taskId }, select: { id: true, userId: true, agentProfileId: true } });
  const keyOf = (row: { userId: string | null; agentProfileId: string | null }) =>
    row.userId ? `user:${row.userId}` : `agent:${row.agentProfileId}`;
  const wanted = new Map(list.map((entry, position) => [`${entry.kind}:${entry.id}`, { ...entry, position }]));
  const gone = existing.filter((row) => !wanted.has(keyOf(row))).map((row) => row.id);
  if (gone.length > 0) await tx.taskAssignee.deleteMany({ where: { id: { in: gone } } });
  const kept = new Map(existing.filter((row) => wanted.has(keyOf(row))).map((row) => [keyOf(row), row.id]));
  const startsRuns = AGENT_START_COLUMNS.includes(status as ColumnKey);
  const assignedById = currentActor().user_id;
  for (const [key, entry] of wanted) {
    const id = kept.get(key);
    if (id) {
      await tx.taskAssignee.update({ where: { id }, data: { position: entry.position }, select: { id: true } });
      continue;
    }
    await tx.taskAssignee.create({
      select: { id: true },
      data: {
        workspaceId,
        taskId,
        position: entry.position,
        userId: entry.kind === "user" ? entry.id : null,
        agentProfileId: entry.kind === "agent" ? entry.id : null,
        startPending: entry.kind === "agent" && startsRuns,
        assignedById,
        assignedByTokenId: assigner.agentTokenId,
      },
    });
  }
  await tx.task.update({ where: { id: taskId }, data: { hasAssignees: list.length > 0 }, select: { id: true } });
}

async function checkAssignees(tx: Tx, workspaceId: string, list: AssigneeList) {
  const userIds = list.filter((entry) => entry.kind === "user").map((entry) => entry.id);
  const agentIds = list.filter((entry) => entry.kind === "agent").map((entry) => entry.id);
  const [members, profiles] = await Promise.all([
    userIds.length
      ? tx.membership.findMany({ where: { workspaceId, userId: { in: userIds } }, select: { userId: true } })
      : Promise.resolve([]),
    agentIds.length
      ? tx.agentProfile.findMany({ where: { workspaceId, id: { in: agentIds } }, select: { id: true } })
      : Promise.resolve([]),
  ]);
  const known = new Set([...members.map((m) => `user:${m.userId}`), ...profiles.map((p) => `agent:${p.id}`)]);
  const errors: ValidationEntry[] = [];
  list.forEach((entry, index) => {
    if (known.has(`${entry.kind}:${entry.id}`)) return;
    errors.push({
      type: "value_error",
      loc: ["body", "assignees", index, "id"],
      msg: entry.kind === "user" ? "Value error, not a member of this workspace" : "Value error, not an agent profile of this workspace",
      input: entry.id,
    });
  });
  if (errors.length > 0) throw new ValidationError(errors);
}

/**
 * A task entering todo or in_progress from another column marks its agent assignees
 * `start_pending`, so an agent assigned in Backlog starts when the task is moved to work. Once per
 * assignment: an assignee whose assigned run was already started (a move back and forth) is not
 * marked again.
 */
export async function markAgentStartsOnEntry(tx: Tx, taskId: string, from: string, to: string): Promise<void> {
  const starts = (column: string) => AGENT_START_COLUMNS.includes(column as ColumnKey);
  if (starts(from) || !starts(to)) return;
  await tx.$executeRaw`
    UPDATE task_assignees a SET start_pending = true
    WHERE a.task_id = ${taskId} AND a.agent_profile_id IS NOT NULL AND NOT a.start_pending
      AND NOT EXISTS (
        SELECT 1 FROM executions e
        WHERE e.task_id = a.task_id AND e.agent_id = a.agent_profile_id AND e.trigger = 'assigned' AND e.created_at >= a.created_at)`;
}
