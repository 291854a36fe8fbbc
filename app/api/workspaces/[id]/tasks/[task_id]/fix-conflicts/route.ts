import { json, withWorkspace } from "@/lib/api/handler";
import { fixConflictsQuery, taskParams } from "@/lib/runs/schemas";
import { startFixConflicts } from "@/lib/runs/start-run";

export const POST = withWorkspace({ params: taskParams, query: fixConflictsQuery }, async ({ db, workspace, params, query, caller }) =>
  json(await startFixConflicts(db, workspace.id, params.task_id, caller, query.keep_status), 202),
);
