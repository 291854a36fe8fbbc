import { json, noContent, withWorkspace } from "@/lib/api/handler";
import { scheduleParams, SCHEDULES_REFUSED, updateScheduleBody } from "@/lib/schedules/schemas";
import { deleteSchedule } from "@/lib/schedules/delete-schedule";
import { getScheduleDetail } from "@/lib/schedules/get-schedule-detail";
import { updateSchedule } from "@/lib/schedules/update-schedule";

export const GET = withWorkspace({ params: scheduleParams }, async ({ db, workspace, params }) =>
  json(await getScheduleDetail(db, workspace.id, params.ref)),
);

export const PATCH = withWorkspace(
  { params: scheduleParams, body: updateScheduleBody, humansOnly: SCHEDULES_REFUSED },
  async ({ db, workspace, params, body }) => json(await updateSchedule(db, workspace.id, params.ref, body)),
);

export const DELETE = withWorkspace({ params: scheduleParams, humansOnly: SCHEDULES_REFUSED }, async ({ db, workspace, params }) => {
  await deleteSchedule(db, workspace.id, params.ref);
  return noContent();
});
