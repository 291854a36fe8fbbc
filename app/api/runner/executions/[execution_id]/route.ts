import { noContent } from "@/lib/api/handler";
import { withRunner } from "@/lib/api/runner-route";
import { executionParams, updateExecutionBody } from "@/lib/runner-protocol";
import { updateRunnerExecution } from "@/lib/dispatch/report-execution";

export const PATCH = withRunner({ params: executionParams, body: updateExecutionBody }, async ({ db, runner, params, body }) => {
  await updateRunnerExecution(db, runner, params.execution_id, body);
  return noContent();
});
