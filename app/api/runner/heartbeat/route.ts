import { json } from "@/lib/api/handler";
import { withRunner } from "@/lib/api/runner-route";
import { heartbeatBody } from "@/lib/runner-protocol";
import { renewLeases } from "@/lib/dispatch/renew-leases";
import { closingSignal } from "@/lib/server/draining";

// A held heartbeat ends when the runner goes away, or when this server closes (lib/server/shutdown.ts).
export const POST = withRunner({ body: heartbeatBody }, async ({ db, runner, body, request }) =>
  json(await renewLeases(db, runner, body, AbortSignal.any([request.signal, closingSignal()]))),
);
