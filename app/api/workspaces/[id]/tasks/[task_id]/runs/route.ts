import { json, withWorkspace } from "@/lib/api/handler";
import { listRunsQuery, startRunBody, taskParams } from "@/lib/runs/schemas";
import { listTaskRuns } from "@/lib/runs/list-task-runs";
import { startManualRun } from "@/lib/runs/start-run";

export const GET = withWorkspace({ params: taskParams, query: listRunsQuery }, async ({ db, workspace, params, query }) =>
  json(await listTaskRuns(db, workspace.id, params.task_id, query.limit)),
);

export const POST = withWorkspace({ params: taskParams, body: startRunBody }, async ({ db, workspace, params, body, caller }) =>
  json(await startManualRun(db, workspace.id, params.task_id, caller, body ?? {}), 202),
);
