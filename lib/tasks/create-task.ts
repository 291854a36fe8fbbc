import type { z } from "zod";
import { recordTaskEvent } from "@/lib/events/record-events";
import type { Db, Tx } from "@/lib/db/client";
import { endOfColumn, inColumnTransaction, lockColumn } from "@/lib/tasks/positions";
import { checkProjectPhase } from "@/lib/tasks/project-phase";
import type { createTaskBody, TaskResponse } from "@/lib/tasks/schemas";
import { PERSON_ASSIGNING, replaceAssignees, type Assigner } from "@/lib/tasks/assignees";

/** The new task as its transaction committed it (its task.created event's data: no read after commit). */
export async function createTask(
  db: Db,
  workspaceId: string,
  body: z.output<typeof createTaskBody>,
  assigner: Assigner = PERSON_ASSIGNING,
): Promise<TaskResponse> {
  const task = await inColumnTransaction(db, async (tx) =>
    recordTaskEvent(tx, workspaceId, "task.created", await insertTask(tx, workspaceId, body, assigner)),
  );
  return JSON.parse(task) as TaskResponse;
}

/**
 * The same inside the caller's transaction (firing a schedule creates its task with the run);
 * returns the new task's id. The caller records `task.created` (lib/events/record-events.ts: last in its transaction).
 */
export async function insertTask(
  tx: Tx,
  workspaceId: string,
  body: z.output<typeof createTaskBody>,
  assigner: Assigner = PERSON_ASSIGNING,
): Promise<string> {
  await lockColumn(tx, workspaceId, body.status);
  await checkProjectPhase(tx, workspaceId, body.project_id ?? null, body.phase ?? null);
  const row = await tx.task.create({
    data: {
      workspaceId,
      title: body.title,
      description: body.description,
      status: body.status,
      priority: body.priority,
      tags: body.tags,
      projectId: body.project_id ?? null,
      phase: body.phase ?? null,
      prUrl: body.pr_url ?? null,
      position: await endOfColumn(tx, workspaceId, body.status),
      doneAt: body.status === "done" ? new Date() : null,
      dueAt: body.due_at ? new Date(body.due_at) : null,
    },
    select: { id: true },
  });
  if (body.assignees.length > 0) await replaceAssignees(tx, workspaceId, row.id, body.status, body.assignees, assigner);
  return row.id;
}
