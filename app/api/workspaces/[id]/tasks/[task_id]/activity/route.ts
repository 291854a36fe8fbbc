import { json, withWorkspace } from "@/lib/api/handler";
import { activityQuery } from "@/lib/activity/schemas";
import { readActivity } from "@/lib/activity/read-activity";
import { taskParams } from "@/lib/tasks/schemas";

export const GET = withWorkspace({ params: taskParams, query: activityQuery }, async ({ db, workspace, params, query }) =>
  json(await readActivity(db, workspace.id, params.task_id, query.before, query.limit)),
);
