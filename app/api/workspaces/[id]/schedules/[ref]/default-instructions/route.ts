import { json, withWorkspace } from "@/lib/api/handler";
import { scheduleParams } from "@/lib/schedules/schemas";
import { findSchedule } from "@/lib/schedules/find-schedule";

export const GET = withWorkspace({ params: scheduleParams }, async ({ db, workspace, params }) =>
  json({ instructions: (await findSchedule(db, workspace.id, params.ref)).defaultInstructions }),
);
