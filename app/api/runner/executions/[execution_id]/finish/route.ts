import { noContent } from "@/lib/api/handler";
import { withRunner } from "@/lib/api/runner-route";
import { executionParams, finishBody } from "@/lib/runner-protocol";
import { finishRunnerExecution } from "@/lib/dispatch/report-execution";

export const POST = withRunner({ params: executionParams, body: finishBody }, async ({ db, runner, params, body }) => {
  await finishRunnerExecution(db, runner, params.execution_id, body);
  return noContent();
});
