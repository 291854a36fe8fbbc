import { noContent } from "@/lib/api/handler";
import { withRunner } from "@/lib/api/runner-route";
import { executionParams, releaseBody } from "@/lib/runner-protocol";
import { releaseRunnerExecution } from "@/lib/dispatch/release-execution";

export const POST = withRunner({ params: executionParams, body: releaseBody }, async ({ db, runner, params, body }) => {
  await releaseRunnerExecution(db, runner, params.execution_id, body.reason);
  return noContent();
});
