import path from "node:path";
import { json } from "@/lib/api/handler";
import { withRunner } from "@/lib/api/runner-route";
import { saveRequestBody } from "@/lib/api/save-request-body";
import { bundleMaxBytes, dataDir } from "@/lib/config";
import { executionParams } from "@/lib/runner-protocol";
import { storeRunnerBundle } from "@/lib/dispatch/store-runner-bundle";

// The body is the bundle itself (application/octet-stream), streamed to a private file in DATA_DIR
// (at most RUNNER_BUNDLE_MAX_BYTES, 413 beyond) once the run and its branch pass their checks.
export const PUT = withRunner({ params: executionParams }, async ({ db, runner, params, request }) => {
  const save = () => saveRequestBody(request, path.join(dataDir(), "incoming-bundles"), bundleMaxBytes());
  return json(await storeRunnerBundle(db, runner, params.execution_id, save));
});
