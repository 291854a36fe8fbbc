import { json } from "@/lib/api/handler";
import { withRunner } from "@/lib/api/runner-route";
import { claimBody } from "@/lib/runner-protocol";
import { waitForJob } from "@/lib/dispatch/claim-job";
import { closingSignal } from "@/lib/server/draining";

// The long poll ends when the runner goes away, or when this server closes (lib/server/shutdown.ts),
// which would otherwise wait for it.
export const POST = withRunner({ body: claimBody }, async ({ db, runner, body, request }) =>
  json(await waitForJob(db, runner, body, AbortSignal.any([request.signal, closingSignal()]))),
);
