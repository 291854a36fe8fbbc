import type { z } from "zod";
import { conflict, notFound } from "@/lib/platform/errors";
import { recordEvents } from "@/lib/events/record-events";
import { getSql, type Db } from "@/lib/db/client";
import { loadTask } from "@/lib/tasks/load-tasks";
import { doneAtFor, endOfColumn, inColumnTransaction, lockColumn } from "@/lib/tasks/positions";
import { checkProjectPhase } from "@/lib/tasks/project-phase";
import type { updateTaskBody } from "@/lib/tasks/schemas";

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
) {
  await inColumnTransaction(db, async (tx) => {
    const placing = body.status !== undefined || body.position !== undefined;
    // The column lock comes before the row lock (see positions.ts), so find the column unlocked first.
    const seen = await tx.task.findFirst({ where: { id: taskId, workspaceId }, select: { status: true } });
    if (!seen) throw notFound("Task");
    const column = body.status ?? seen.status;
    if (placing) await lockColumn(tx, workspaceId, column);
    const locked = await tx.$queryRaw<{ status: string }[]>`
      SELECT status FROM tasks WHERE id = ${taskId} AND workspace_id = ${workspaceId} FOR UPDATE`;
    if (locked.length === 0) throw notFound("Task");
    if (body.status === undefined && locked[0].status !== column) throw conflict("The task was moved meanwhile; reload and retry");
    const task = (await tx.task.findUnique({ where: { id: taskId } }))!;

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
      },
    });
    await recordEvents(tx, workspaceId, [{ type: "task.updated", taskId }]);
  });
  return (await loadTask(await getSql(), workspaceId, taskId))!;
}
