import { json, withWorkspace } from "@/lib/api/handler";
import { prefersRespondAsync, RESPOND_ASYNC } from "@/lib/api/prefer";
import { listRunsQuery, startRunBody, taskParams } from "@/lib/runs/schemas";
import { listTaskRuns } from "@/lib/runs/list-task-runs";
import { startManualRun } from "@/lib/runs/start-run";

export const GET = withWorkspace({ params: taskParams, query: listRunsQuery }, async ({ db, workspace, params, query }) =>
  json(await listTaskRuns(db, workspace.id, params.task_id, query.limit)),
);

export const POST = withWorkspace({ params: taskParams, body: startRunBody }, async ({ request, db, workspace, params, body, caller }) => {
  const answerQueued = prefersRespondAsync(request);
  const response = json(await startManualRun(db, workspace.id, params.task_id, { ...caller, answerQueued }, body ?? {}), 202);
  if (answerQueued) response.headers.set("preference-applied", RESPOND_ASYNC);
  return response;
});
