import type { Db } from "@/lib/db/client";
import { RUN_TRIGGER } from "@/lib/runs/statuses";
import { fireSchedule } from "@/lib/schedules/fire-schedule";
import { findSchedule } from "@/lib/schedules/find-schedule";
import { inColumnTransaction } from "@/lib/tasks/positions";

/**
 * "Trigger now": one occurrence of the schedule at once (trigger "manual"), acting as the caller.
 * The execution is only queued here; the runner picks it up.
 */
export async function triggerSchedule(db: Db, workspaceId: string, ref: string, startedBy: string) {
  const schedule = await findSchedule(db, workspaceId, ref);
  const fired = await inColumnTransaction(db, (tx) =>
    fireSchedule(tx, schedule, { trigger: RUN_TRIGGER.manual, actAs: startedBy, now: new Date() }),
  );
  const { run, execution } = fired.started;
  const task = await db.task.findUniqueOrThrow({ where: { id: fired.taskId }, select: { number: true, title: true } });
  return {
    schedule_id: schedule.id,
    task_id: fired.taskId,
    task_number: task.number,
    task_title: task.title,
    task_run_id: run.id,
    attempt_number: run.attemptNumber,
    execution_id: execution.id,
  };
}
