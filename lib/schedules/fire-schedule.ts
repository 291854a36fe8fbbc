import type { Schedule } from "@/lib/generated/prisma/client";
import type { Tx } from "@/lib/db/client";
import { recordEvents } from "@/lib/events/record-events";
import { taskInstructions } from "@/lib/runs/instructions";
import { createExecution, startedEvents } from "@/lib/runs/start-execution";
import type { RunTrigger } from "@/lib/runs/statuses";
import { insertTask } from "@/lib/tasks/create-task";
import { createTaskBody } from "@/lib/tasks/schemas";
import { refuseIfBlocked } from "@/lib/dependencies/task-refs";

// One occurrence of a schedule, whoever fires it: the scheduler at cron time (trigger `schedule`)
// or a person's "Trigger now" (trigger `manual`). docs/agents.md states the rules.

export interface FireOptions {
  trigger: RunTrigger;
  /** The user the agent's token acts as. */
  actAs: string;
  now: Date;
}

export type Fired = Awaited<ReturnType<typeof fireSchedule>>;

/**
 * In the caller's transaction: the schedule's task (a new one at the end of `todo` when it has
 * none, titled after the schedule, its description the default instructions), a queued run of it,
 * and `last_triggered_at`, and their events (last, as lib/events/record-events.ts asks; the caller's
 * transaction must end after this). 409 when the task already has an active execution, or is blocked
 * by tasks that are not done (BlockedError, naming them).
 */
export async function fireSchedule(tx: Tx, schedule: Schedule, options: FireOptions) {
  const existing = schedule.taskId
    ? await tx.task.findFirst({ where: { id: schedule.taskId, workspaceId: schedule.workspaceId }, select: { id: true } })
    : null;
  const taskId =
    existing?.id ??
    (await insertTask(
      tx,
      schedule.workspaceId,
      createTaskBody.parse({ title: schedule.name, description: schedule.defaultInstructions, status: "todo" }),
    ));
  const task = await tx.task.findUniqueOrThrow({ where: { id: taskId } });
  // A task that waits for unfinished tasks is not run by a schedule: the occurrence is skipped (409).
  if (existing) await refuseIfBlocked(tx, schedule.workspaceId, task);
  const started = await createExecution(tx, {
    workspaceId: schedule.workspaceId,
    taskId,
    trigger: options.trigger,
    instructions: scheduleInstructions(schedule.defaultInstructions, task),
    startedBy: options.actAs,
    agentId: schedule.agentId,
  });
  await tx.schedule.updateMany({ where: { id: schedule.id }, data: { lastTriggeredAt: options.now, lastError: null } });
  await recordEvents(tx, schedule.workspaceId, [
    ...(existing ? [] : [{ type: "task.created" as const, taskId }]),
    ...startedEvents(started),
  ]);
  return { schedule, taskId, newTask: !existing, started };
}

/** Blank default instructions mean the task's own: its title and description, as for a manual run. */
function scheduleInstructions(defaultInstructions: string, task: Parameters<typeof taskInstructions>[0]): string {
  return defaultInstructions.trim() ? defaultInstructions : taskInstructions(task);
}
