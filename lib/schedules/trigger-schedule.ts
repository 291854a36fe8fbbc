import type { Db } from "@/lib/db/client";
import type { Task } from "@/lib/generated/prisma/client";
import { publishEvent } from "@/lib/events/publish";
import { startExecution } from "@/lib/runs/start-execution";
import { findSchedule } from "@/lib/schedules/schedules";

/**
 * Starts a run now (trigger "manual") with the schedule's default instructions: on its task, or on
 * a new task titled after the schedule at the end of the todo column. The execution is only queued
 * here; the runner picks it up.
 */
export async function triggerSchedule(db: Db, workspaceId: string, ref: string) {
  const schedule = await findSchedule(db, workspaceId, ref);
  const taskId = schedule.taskId ?? (await createTaskAtEndOfTodo(db, workspaceId, schedule.name)).id;
  const { run, execution } = await startExecution(db, {
    workspaceId,
    taskId,
    trigger: "manual",
    instructions: schedule.defaultInstructions,
  });
  await db.schedule.updateMany({ where: { id: schedule.id }, data: { lastTriggeredAt: new Date() } });
  return { schedule_id: schedule.id, task_id: taskId, task_run_id: run.id, execution_id: execution.id };
}

async function createTaskAtEndOfTodo(db: Db, workspaceId: string, title: string): Promise<Task> {
  // (workspace_id, status, position) is unique: a concurrent insert at the same end position fails
  // with P2002, and the next attempt reads the new maximum.
  for (let attempt = 0; ; attempt++) {
    try {
      const task = await db.$transaction(async (tx) => {
        const last = await tx.task.aggregate({ where: { workspaceId, status: "todo" }, _max: { position: true } });
        return tx.task.create({ data: { workspaceId, title, status: "todo", position: (last._max.position ?? 0) + 1 } });
      });
      publishEvent(workspaceId, "task.created", taskEventData(task));
      return task;
    } catch (error) {
      if ((error as { code?: string }).code !== "P2002" || attempt >= 4) throw error;
    }
  }
}

// The board refetches on task events; this carries the record's own fields.
function taskEventData(task: Task) {
  return {
    id: task.id,
    workspace_id: task.workspaceId,
    title: task.title,
    description: task.description,
    status: task.status,
    position: task.position,
    priority: task.priority,
    tags: task.tags,
    pr_url: task.prUrl,
    has_merge_conflict: task.hasMergeConflict,
    project_id: task.projectId,
    phase: task.phase,
    blocked: task.blocked,
    created_at: task.createdAt.toISOString(),
    updated_at: task.updatedAt.toISOString(),
    done_at: task.doneAt?.toISOString() ?? null,
  };
}
