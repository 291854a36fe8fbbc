import { json, withWorkspace } from "@/lib/api/handler";
import { scheduleParams } from "@/lib/schedules/schemas";
import { triggerSchedule } from "@/lib/schedules/trigger-schedule";

// 202: the run is queued, not finished.
export const POST = withWorkspace({ params: scheduleParams }, async ({ db, workspace, params }) =>
  json(await triggerSchedule(db, workspace.id, params.ref), 202),
);
