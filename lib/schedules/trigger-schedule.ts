import type { Db } from "@/lib/db/client";
import { startExecution } from "@/lib/runs/start-execution";
import { findSchedule } from "@/lib/schedules/schedules";
import { createTask } from "@/lib/tasks/create-task";
import { createTaskBody } from "@/lib/tasks/schemas";

/**
 * Starts a run now (trigger "manual") with the schedule's default instructions: on its task, or on
 * a new task titled after the schedule at the end of the todo column. The execution is only queued
 * here; the runner picks it up.
 */
export async function triggerSchedule(db: Db, workspaceId: string, ref: string, startedBy: string) {
  const schedule = await findSchedule(db, workspaceId, ref);
  const taskId = schedule.taskId ?? (await createTask(db, workspaceId, createTaskBody.parse({ title: schedule.name, status: "todo" }))).id;
  const { run, execution } = await startExecution(db, {
    workspaceId,
    taskId,
    trigger: "manual",
    instructions: schedule.defaultInstructions,
    startedBy,
  });
  await db.schedule.updateMany({ where: { id: schedule.id }, data: { lastTriggeredAt: new Date() } });
  return { schedule_id: schedule.id, task_id: taskId, task_run_id: run.id, execution_id: execution.id };
}
