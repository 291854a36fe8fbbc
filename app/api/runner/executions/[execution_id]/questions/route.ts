import { json } from "@/lib/api/handler";
import { withRunner } from "@/lib/api/runner-route";
import { executionParams, permissionBody } from "@/lib/runner-protocol";
import { askPermission } from "@/lib/dispatch/runner-questions";

export const POST = withRunner({ params: executionParams, body: permissionBody }, async ({ db, runner, params, body }) =>
  json(await askPermission(db, runner, params.execution_id, body), 201),
);
