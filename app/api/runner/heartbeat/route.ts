import { json } from "@/lib/api/handler";
import { withRunner } from "@/lib/api/runner-route";
import { heartbeatBody } from "@/lib/runner-protocol";
import { renewLeases } from "@/lib/dispatch/renew-leases";

export const POST = withRunner({ body: heartbeatBody }, async ({ db, runner, body }) =>
  json(await renewLeases(db, runner, body.executions)),
);
