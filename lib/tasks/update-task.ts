import type { z } from "zod";
import { conflict, notFound } from "@/lib/platform/errors";
import { recordTaskEvent } from "@/lib/events/record-events";
import type { Db } from "@/lib/db/client";
import { doneAtFor, endOfColumn, inColumnTransaction, lockColumn } from "@/lib/tasks/positions";
import { checkProjectPhase } from "@/lib/tasks/project-phase";
import type { TaskResponse, updateTaskBody } from "@/lib/tasks/schemas";
import { markAgentStartsOnEntry, PERSON_ASSIGNING, replaceAssignees, type Assigner } from "@/lib/tasks/assignees";

/** What GitHub reports about a task's pull request: set by webhooks (lib/github/sync), never by PATCH. */
export type PullRequestFields = {
  pr_number?: number | null;
  pr_state?: "open" | "draft" | "merged" | "closed" | null;
  pr_head_sha?: string | null;
  /** The PR's head branch when it is in the workspace's repository (lib/git/remote/push-task-branch.ts). */
  pr_head_branch?: string | null;
  checks?: "pending" | "success" | "failure" | null;
};

export async function updateTask(
  db: Db,
  workspaceId: string,
  taskId: string,
  body: z.output<typeof updateTaskBody>,
  pullRequest: PullRequestFields = {},
  assigner: Assigner = PERSON_ASSIGNING,
): Promise<TaskResponse> {
  const updated = await inColumnTransaction(db, async (tx) => {
    const placing = body.status !== undefined || body.position !== undefined;
    let locking: string | undefined = body.status;
    if (placing) {
      // The column lock comes before the row lock (see positions.ts): a new position in the task's
      // own column has it found unlocked first, and checked again under the lock below.
      if (locking === undefined) {
        const seen = await tx.task.findFirst({ where: { id: taskId, workspaceId }, select: { status: true } });
        if (!seen) throw notFound("Task");
        locking = seen.status;
      }
      await lockColumn(tx, workspaceId, locking);
    }
    const [task] = await tx.$queryRaw<{ status: string; projectId: string | null; phase: number | null; doneAt: Date | null }[]>`
      SELECT status, project_id AS "projectId", phase, done_at AS "doneAt"
      FROM tasks WHERE id = ${taskId} AND workspace_id = ${workspaceId} FOR UPDATE`;
    if (!task) throw notFound("Task");
    if (locking !== undefined && body.status === undefined && task.status !== locking) {
      throw conflict("The task was moved meanwhile; reload and retry");
    }
    const column = body.status ?? task.status;

    if (body.project_id !== undefined || body.phase !== undefined) {
      await checkProjectPhase(
        tx,
        workspaceId,
        body.project_id !== undefined ? body.project_id : task.projectId,
        body.phase !== undefined ? body.phase : task.phase,
      );
    }
    const moving = body.status !== undefined && body.status !== task.status;
    let position = body.position;
    if (position === undefined && moving) position = await endOfColumn(tx, workspaceId, column, taskId);

    await tx.task.update({
      where: { id: taskId },
      select: { id: true },
      data: {
        title: body.title,
        description: body.description,
        status: body.status,
        priority: body.priority,
        tags: body.tags,
        projectId: body.project_id,
        phase: body.phase,
        prUrl: body.pr_url,
        branch: body.branch,
        position,
        hasMergeConflict: body.has_merge_conflict,
        prNumber: pullRequest.pr_number,
        prState: pullRequest.pr_state,
        prHeadSha: pullRequest.pr_head_sha,
        prHeadBranch: pullRequest.pr_head_branch,
        checks: pullRequest.checks,
        blocked: body.blocked,
        doneAt: doneAtFor(task.status, column, task.doneAt),
        dueAt: body.due_at === undefined ? undefined : body.due_at && new Date(body.due_at),
      },
    });
    if (moving) await markAgentStartsOnEntry(tx, taskId, task.status, column);
    if (body.assignees !== undefined) await replaceAssignees(tx, workspaceId, taskId, column, body.assignees, assigner);
    // The answer is the task as this transaction leaves it: the event's data, no read after commit.
    return recordTaskEvent(tx, workspaceId, "task.updated", taskId);
  });
  return JSON.parse(updated) as TaskResponse;
}
