import type { z } from "zod";
import { recordEvents } from "@/lib/events/record-events";
import { getSql, type Db, type Tx } from "@/lib/db/client";
import { loadTask } from "@/lib/tasks/load-tasks";
import { endOfColumn, inColumnTransaction, lockColumn } from "@/lib/tasks/positions";
import { checkProjectPhase } from "@/lib/tasks/project-phase";
import type { createTaskBody } from "@/lib/tasks/schemas";

export async function createTask(db: Db, workspaceId: string, body: z.output<typeof createTaskBody>) {
  const id = await inColumnTransaction(db, async (tx) => {
    const id = await insertTask(tx, workspaceId, body);
    await recordEvents(tx, workspaceId, [{ type: "task.created", taskId: id }]);
    return id;
  });
  return (await loadTask(await getSql(), workspaceId, id))!;
}

/**
 * The same inside the caller's transaction (firing a schedule creates its task with the run);
 * returns the new task's id. The caller records `task.created` (lib/events/record-events.ts: last in its transaction).
 */
export async function insertTask(tx: Tx, workspaceId: string, body: z.output<typeof createTaskBody>): Promise<string> {
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
    },
    select: { id: true },
  });
  return row.id;
}
