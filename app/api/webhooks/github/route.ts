import { json, publicRoute } from "@/lib/api/handler";
import { readTextBody } from "@/lib/api/read-body";
import { MAX_DELIVERY_BYTES, receiveGithubDelivery, refuseUnverifiableDelivery } from "@/lib/github/sync/receive-delivery";

// GitHub's deliveries authenticate with their signature (X-Hub-Signature-256), not a session, and the
// signature covers the exact bytes: the body is read as text, never parsed and re-serialised first.
// Without a secret or a signature header the answer is 401 before a byte of the body is read; the
// body is then streamed, at most 25 MiB (413). This is why there is no Next middleware: for a request
// it runs on, Next takes in the whole body, up to 10 MB, before any route could answer. Other
// methods get their 405 from lib/api/http-guard.ts.
export const POST = publicRoute({ before: refuseUnverifiableDelivery }, async ({ db, request }) => {
  const answer = await receiveGithubDelivery(db, await readTextBody(request, MAX_DELIVERY_BYTES), request.headers);
  return json(answer.body, answer.status);
});
