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
  return { schedule_id: schedule.id, task_id: fired.taskId, task_run_id: run.id, execution_id: execution.id };
}
