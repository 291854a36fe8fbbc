import { HttpError } from "@/lib/platform/errors";
import { actingAs } from "@/lib/events/actor";
import { recordEvents } from "@/lib/events/record-events";
import type { Reaction } from "@/lib/reactions/reaction";
import { refuseIfBlocked } from "@/lib/dependencies/task-refs";
import { mentionedInstructions } from "@/lib/runs/instructions";
import { createExecution, startedEvents } from "@/lib/runs/start-execution";
import { RUN_TRIGGER } from "@/lib/runs/statuses";

interface Pending {
  id: string;
  body: string;
  author_id: string;
  author_token_id: string | null;
  agent_start_pending: string[];
  username: string | null;
  display_name: string | null;
}

/**
 * A new comment naming an agent profile of the workspace (`@agent-name`, lib/comments/mentions.ts)
 * starts a run of that profile on the task, with the comment as its instructions, once: the
 * comment's marks are cleared in the transaction that queues the run. As the comment's author;
 * an agent's comment continues its token's run, so the rules for agent-started runs hold (its own
 * profile only, the chain's depth, the workspace's rate: lib/runs/agent-started-run.ts). Unlike
 * assigning, a mention is an explicit request: it starts in any column and whatever the
 * workspace's auto_start_assigned says. Of several profiles named, the first starts; the task then
 * has a run going, which is the answer (409, the reaction's last_error) for the others.
 */
export const startMentionedAgents: Reaction = {
  name: "start-mentioned-agents",
  description:
    "Starts a run of an agent profile named in a new comment (@agent-name), once per comment, with the comment as its instructions.",
  types: ["comment.created"],
  async handle(db, event) {
    const taskId = event.task_id;
    const commentId = (event.data as { id?: string } | null)?.id;
    if (!taskId || !commentId) return;
    const workspaceId = event.workspace_id;
    const refusal = await db.$transaction(async (tx) => {
      const [pending] = await tx.$queryRaw<Pending[]>`
        SELECT c.id, c.body, c.author_id, c.author_token_id, c.agent_start_pending, u.username, u.display_name
        FROM task_comments c JOIN users u ON u.id = c.author_id
        WHERE c.id = ${commentId} AND c.workspace_id = ${workspaceId} AND cardinality(c.agent_start_pending) > 0
        FOR UPDATE OF c`;
      if (!pending) return null;
      await tx.taskComment.update({ where: { id: pending.id }, data: { agentStartPending: [] }, select: { id: true } });
      const task = await tx.task.findFirst({
        where: { id: taskId, workspaceId },
        select: { id: true, number: true, title: true, description: true, prUrl: true },
      });
      if (!task) return null;
      const actor = {
        type: pending.author_token_id ? ("agent" as const) : ("user" as const),
        user_id: pending.author_id,
        username: pending.username,
      };
      let first: HttpError | null = null;
      for (const agentId of pending.agent_start_pending) {
        try {
          await refuseIfBlocked(tx, workspaceId, task);
          const created = await createExecution(tx, {
            workspaceId,
            taskId,
            trigger: RUN_TRIGGER.mentioned,
            instructions: mentionedInstructions(task, pending.display_name ?? pending.username ?? "someone", pending.body),
            startedBy: pending.author_id,
            agentId,
            agentTokenId: pending.author_token_id,
          });
          await actingAs(actor, () => recordEvents(tx, workspaceId, startedEvents(created)));
        } catch (error) {
          // Already running, blocked, or refused by the agent-started runs' rules: an answer, not a failure.
          if (!(error instanceof HttpError) || error.status >= 500) throw error;
          first ??= error;
        }
      }
      return first;
    });
    // The marks are cleared; a refusal becomes the reaction's last_error (an answer: no retry).
    if (refusal) throw refusal;
  },
};
