import { noContent } from "@/lib/api/handler";
import { withRunner } from "@/lib/api/runner-route";
import { DIFF_REQUEST_MAX_BYTES, diffBody, executionParams } from "@/lib/runner-protocol";
import { storeRunnerDiff } from "@/lib/dispatch/report-execution";

export const PUT = withRunner(
  { params: executionParams, body: diffBody, bodyLimit: DIFF_REQUEST_MAX_BYTES },
  async ({ db, runner, params, body }) => {
    await storeRunnerDiff(db, runner, params.execution_id, body);
    return noContent();
  },
);
