import { json, publicRoute } from "@/lib/api/handler";
import { readTextBody } from "@/lib/api/read-body";
import { receiveSlackEvent } from "@/lib/slack/receive-event";
import { assertSignedBySlack, MAX_SLACK_BODY_BYTES, refuseUnsignedSlackRequest } from "@/lib/slack/refuse-unsigned";

// Slack's Events API (docs/slack.md): the address check, and replies in a question's thread.
// Authenticated by Slack's signature; a retried delivery is recognised by its event_id.
export const POST = publicRoute({ before: refuseUnsignedSlackRequest }, async ({ db, request }) => {
  const rawBody = await readTextBody(request, MAX_SLACK_BODY_BYTES);
  assertSignedBySlack(rawBody, request.headers);
  const outcome = await receiveSlackEvent(db, rawBody);
  outcome.reply?.().catch((error) => console.error("[slack] could not reply in a thread:", error));
  return json(outcome.body, outcome.status);
});
