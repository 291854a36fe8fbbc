import { json } from "@/lib/api/handler";
import { withRunner } from "@/lib/api/runner-route";
import { executionParams, remoteBody } from "@/lib/runner-protocol";
import { runnerRemote } from "@/lib/dispatch/report-execution";

export const POST = withRunner({ params: executionParams, body: remoteBody }, async ({ db, runner, params, body }) =>
  json(await runnerRemote(db, runner, params.execution_id, body?.fresh ?? false, body?.push)),
);
