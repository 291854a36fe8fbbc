import { json, withWorkspace } from "@/lib/api/handler";
import { executionParams } from "@/lib/runs/schemas";
import { cancelExecution } from "@/lib/runs/cancel-execution";

export const POST = withWorkspace({ params: executionParams }, async ({ db, workspace, params, caller }) =>
  json(await cancelExecution(db, workspace.id, params.execution_id, caller.username)),
);
