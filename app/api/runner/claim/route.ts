import { json } from "@/lib/api/handler";
import { withRunner } from "@/lib/api/runner-route";
import { claimBody } from "@/lib/runner-protocol";
import { waitForJob } from "@/lib/runners/claim-job";

export const POST = withRunner({ body: claimBody }, async ({ db, runner, body, request }) =>
  json(await waitForJob(db, runner, body, request.signal)),
);
