import { json, withWorkspace } from "@/lib/api/handler";
import { workspaceParams } from "@/lib/workspaces/schemas";
import { createScheduleBody, listSchedulesQuery, SCHEDULES_REFUSED } from "@/lib/schedules/schemas";
import { createSchedule } from "@/lib/schedules/create-schedule";
import { listSchedules } from "@/lib/schedules/list-schedules";

export const GET = withWorkspace({ params: workspaceParams, query: listSchedulesQuery }, async ({ db, workspace, query }) =>
  json(await listSchedules(db, workspace.id, query)),
);

export const POST = withWorkspace(
  { params: workspaceParams, body: createScheduleBody, humansOnly: SCHEDULES_REFUSED },
  async ({ db, workspace, body, caller }) => json(await createSchedule(db, workspace.id, caller.userId, body), 201),
);
