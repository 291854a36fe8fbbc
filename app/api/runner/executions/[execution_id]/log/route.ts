import { json } from "@/lib/api/handler";
import { withRunner } from "@/lib/api/runner-route";
import { executionParams, logBody } from "@/lib/runners/protocol-schemas";
import { appendRunnerLog } from "@/lib/runners/append-runner-log";

export const POST = withRunner({ params: executionParams, body: logBody }, async ({ db, runner, params, body }) =>
  json(await appendRunnerLog(db, runner, params.execution_id, body)),
);
