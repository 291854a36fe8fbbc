import { json, publicRoute } from "@/lib/api/handler";
import { readTextBody } from "@/lib/api/read-body";
import { receiveSlackInteraction } from "@/lib/slack/receive-interaction";
import { assertSignedBySlack, MAX_SLACK_BODY_BYTES, refuseUnsignedSlackRequest } from "@/lib/slack/refuse-unsigned";

// Slack's button clicks (docs/slack.md). Authenticated by Slack's signature, not a session: the exact
// bytes are checked before they are parsed. What is said back to the clicker goes after the answer.
export const POST = publicRoute({ before: refuseUnsignedSlackRequest }, async ({ db, request }) => {
  const rawBody = await readTextBody(request, MAX_SLACK_BODY_BYTES);
  assertSignedBySlack(rawBody, request.headers);
  const outcome = await receiveSlackInteraction(db, rawBody);
  outcome.reply?.().catch((error) => console.error("[slack] could not answer an interaction:", error));
  return json(outcome.body, outcome.status);
});
