import { json, withWorkspace } from "@/lib/api/handler";
import { scheduleParams, SCHEDULES_REFUSED } from "@/lib/schedules/schemas";
import { triggerSchedule } from "@/lib/schedules/trigger-schedule";

// 202: the run is queued, not finished.
export const POST = withWorkspace({ params: scheduleParams, humansOnly: SCHEDULES_REFUSED }, async ({ db, workspace, params, caller }) =>
  json(await triggerSchedule(db, workspace.id, params.ref, caller.userId), 202),
);
