import { json, withWorkspace } from "@/lib/api/handler";
import { executionParams } from "@/lib/runs/schemas";
import { getExecution } from "@/lib/runs/get-execution";
import { serializeExecution } from "@/lib/runs/serialize";
import { waitingForRunner } from "@/lib/runs/waiting-for-runner";

export const GET = withWorkspace({ params: executionParams }, async ({ db, workspace, params }) => {
  const execution = await getExecution(db, workspace.id, params.execution_id);
  return json(serializeExecution(execution, await waitingForRunner(db, execution)));
});
