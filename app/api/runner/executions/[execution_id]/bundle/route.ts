import { json } from "@/lib/api/handler";
import { withRunner } from "@/lib/api/runner-route";
import { executionParams } from "@/lib/runners/protocol-schemas";
import { storeRunnerBundle } from "@/lib/runners/store-runner-bundle";

// The body is the bundle itself (application/octet-stream), read by the handler as a stream.
export const PUT = withRunner({ params: executionParams }, async ({ db, runner, params, request }) => {
  return json(await storeRunnerBundle(db, runner, params.execution_id, request));
});
