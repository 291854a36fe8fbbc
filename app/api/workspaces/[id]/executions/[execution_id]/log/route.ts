import { json, withWorkspace } from "@/lib/api/handler";
import { executionParams, logQuery } from "@/lib/runs/schemas";
import { readExecutionLog } from "@/lib/runs/read-execution-log";

export const GET = withWorkspace({ params: executionParams, query: logQuery }, async ({ db, workspace, params, query }) =>
  json(await readExecutionLog(db, workspace.id, params.execution_id, query.offset, query.limit)),
);
