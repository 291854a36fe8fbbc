import { json, withWorkspace } from "@/lib/api/handler";
import { prefersRespondAsync, RESPOND_ASYNC } from "@/lib/api/prefer";
import { fixConflictsQuery, taskParams } from "@/lib/runs/schemas";
import { startFixConflicts } from "@/lib/runs/start-run";

export const POST = withWorkspace(
  { params: taskParams, query: fixConflictsQuery },
  async ({ request, db, workspace, params, query, caller }) => {
    const answerQueued = prefersRespondAsync(request);
    const response = json(await startFixConflicts(db, workspace.id, params.task_id, { ...caller, answerQueued }, query.keep_status), 202);
    if (answerQueued) response.headers.set("preference-applied", RESPOND_ASYNC);
    return response;
  },
);
