import { receiveSlackInteraction } from "@/lib/slack/receive-interaction";
import { slackEndpoint } from "@/app/api/integrations/slack/slack-endpoint";

// Slack's button clicks (docs/slack.md).
export const POST = slackEndpoint(receiveSlackInteraction, "answer an interaction");
