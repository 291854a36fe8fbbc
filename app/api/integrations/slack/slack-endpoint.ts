import type { Db } from "@/lib/db/client";
import { json, publicRoute } from "@/lib/api/handler";
import { readTextBody } from "@/lib/api/read-body";
import type { SlackOutcome } from "@/lib/slack/schemas";
import { assertSignedBySlack, MAX_SLACK_BODY_BYTES, refuseUnsignedSlackRequest } from "@/lib/slack/refuse-unsigned";

// Both Slack endpoints (docs/slack.md) are authenticated by Slack's signature, not a session: the
// headers are checked before the body is read, and the exact bytes before they are parsed. Slack is
// answered at once; what is said back to the person goes after.
export function slackEndpoint(receive: (db: Db, rawBody: string) => Promise<SlackOutcome>, replying: string) {
  return publicRoute({ before: refuseUnsignedSlackRequest }, async ({ db, request }) => {
    const rawBody = await readTextBody(request, MAX_SLACK_BODY_BYTES);
    assertSignedBySlack(rawBody, request.headers);
    const outcome = await receive(db, rawBody);
    outcome.reply?.().catch((error) => console.error(`[slack] could not ${replying}:`, error));
    return json(outcome.body, outcome.status);
  });
}
