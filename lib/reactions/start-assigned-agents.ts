import { HttpError } from "@/lib/platform/errors";
import { actingAs } from "@/lib/events/actor";
import { recordEvents } from "@/lib/events/record-events";
import type { Reaction } from "@/lib/reactions/reaction";
import { refuseIfBlocked } from "@/lib/dependencies/task-refs";
import { taskInstructions } from "@/lib/runs/instructions";
import { createExecution, startedEvents } from "@/lib/runs/start-execution";
import { RUN_TRIGGER } from "@/lib/runs/statuses";
import { AGENT_START_COLUMNS } from "@/lib/tasks/columns";

interface Pending {
  id: string;
  agent_profile_id: string;
  assigned_by_id: string | null;
  assigned_by_token_id: string | null;
  username: string | null;
}

/**
 * An agent profile newly assigned to a task in todo or in_progress, or assigned earlier to a task
 * that now enters one of them (lib/tasks/assignees.ts marks the assignment `start_pending`), gets a
 * run of that profile, once: the mark is cleared in the same transaction that queues the run, so a retry or a re-saved list starts nothing more. As the person
 * who assigned it; when an agent's token assigned it, the run continues that token's run, so the
 * rules for agent-started runs hold (its own profile only, the chain's depth, the workspace's rate:
 * lib/runs/agent-started-run.ts), and a refusal is the reaction's answer (shown as its last_error).
 * Off with the workspace's auto_start_assigned, or when the task already has a run going, is
 * blocked or has left the column: the mark is cleared and nothing starts.
 */
export const startAssignedAgents: Reaction = {
  name: "start-assigned-agents",
  description: "Starts a run of an agent profile assigned to a task in To do or In progress, once per assignment (auto_start_assigned).",
  types: ["task.created", "task.updated", "task.moved"],
  // Only tasks in those columns with an agent among their assignees: a rename of any other task
  // passes without a claim or a call (the write path's reactions stay idle, issue #36).
  match: { field: "status", values: [...AGENT_START_COLUMNS], contains: { assignees: [{ kind: "agent" }] } },
  async handle(db, event) {
    const taskId = event.task_id;
    if (!taskId) return;
    const workspaceId = event.workspace_id;
    let refused: HttpError | null = null;
    for (;;) {
      const refusal = await db.$transaction(async (tx) => {
        const [pending] = await tx.$queryRaw<Pending[]>`
          SELECT a.id, a.agent_profile_id, a.assigned_by_id, a.assigned_by_token_id, u.username
          FROM task_assignees a LEFT JOIN users u ON u.id = a.assigned_by_id
          WHERE a.task_id = ${taskId} AND a.workspace_id = ${workspaceId} AND a.start_pending
          ORDER BY a.position LIMIT 1 FOR UPDATE OF a`;
        if (!pending) return null;
        await tx.taskAssignee.update({ where: { id: pending.id }, data: { startPending: false }, select: { id: true } });
        const task = await tx.task.findFirst({
          where: { id: taskId, workspaceId },
          select: {
            id: true,
            number: true,
            title: true,
            description: true,
            prUrl: true,
            status: true,
            workspace: { select: { autoStartAssigned: true } },
          },
        });
        if (
          !task?.workspace.autoStartAssigned ||
          !AGENT_START_COLUMNS.some((column) => column === task.status) ||
          !pending.assigned_by_id
        ) {
          return undefined;
        }
        const actor = {
          type: pending.assigned_by_token_id ? ("agent" as const) : ("user" as const),
          user_id: pending.assigned_by_id,
          username: pending.username,
        };
        try {
          await refuseIfBlocked(tx, workspaceId, task);
          const created = await createExecution(tx, {
            workspaceId,
            taskId,
            trigger: RUN_TRIGGER.assigned,
            instructions: taskInstructions(task),
            startedBy: pending.assigned_by_id,
            agentId: pending.agent_profile_id,
            agentTokenId: pending.assigned_by_token_id,
          });
          await actingAs(actor, () => recordEvents(tx, workspaceId, startedEvents(created)));
          return undefined;
        } catch (error) {
          // Already running, blocked, or refused by the agent-started runs' rules: an answer, not a failure.
          if (error instanceof HttpError && error.status < 500) return error;
          throw error;
        }
      });
      if (refusal === null) break;
      refused ??= refusal ?? null;
    }
    // The marks are cleared; the first refusal becomes the reaction's last_error (an answer: no retry).
    if (refused) throw refused;
  },
};
