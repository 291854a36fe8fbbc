import { json, withWorkspace } from "@/lib/api/handler";
import { executionParams } from "@/lib/runs/schemas";
import { getExecution } from "@/lib/runs/executions";
import { serializeExecution } from "@/lib/runs/serialize";

export const GET = withWorkspace({ params: executionParams }, async ({ db, workspace, params }) =>
  json(serializeExecution(await getExecution(db, workspace.id, params.execution_id))),
);
