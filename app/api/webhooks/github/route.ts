import { json, publicRoute, readTextBody } from "@/lib/api/handler";
import { MAX_DELIVERY_BYTES, receiveGithubDelivery } from "@/lib/github-sync/receive-delivery";

// GitHub's deliveries authenticate with their signature (X-Hub-Signature-256), not a session, and the
// signature covers the exact bytes: the body is read as text, never parsed and re-serialised first.
export const POST = publicRoute({}, async ({ db, request }) => {
  const answer = await receiveGithubDelivery(db, await readTextBody(request, MAX_DELIVERY_BYTES), request.headers);
  return json(answer.body, answer.status);
});
