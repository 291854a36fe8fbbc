import { receiveSlackEvent } from "@/lib/slack/receive-event";
import { slackEndpoint } from "@/app/api/integrations/slack/slack-endpoint";

// Slack's Events API (docs/slack.md): the address check, and replies in a question's thread; a
// retried delivery is recognised by its event_id.
export const POST = slackEndpoint(receiveSlackEvent, "reply in a thread");
