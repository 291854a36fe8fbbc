import type { OperationSpec } from "@/lib/openapi/types";
import { slackAnswer, slackStatus } from "@/lib/slack/schemas";
import { workspaceParams } from "@/lib/workspaces/schemas";

const signed = {
  200: { description: "Taken, ignored or refused in words (`ok`, `detail`): Slack only needs a quick 200", schema: slackAnswer },
  400: { description: "Signed, but not a body Slack sends" },
  401: { description: "No SLACK_SIGNING_SECRET here, or a missing, wrong or older-than-5-minutes X-Slack-Signature: nothing was read" },
  413: { description: "Larger than anything Slack sends (1 MiB)" },
};

// The Slack app's endpoints (docs/slack.md): Slack calls the first two, signed; owners read the third.
export const slackOperations: OperationSpec[] = [
  {
    method: "post",
    path: "/api/integrations/slack/interactions",
    operationId: "receiveSlackInteraction",
    summary: "A click on a question's button in Slack (payload=<JSON>, form-encoded), signed by Slack (v0 HMAC)",
    tags: ["slack"],
    auth: false,
    rawBody: { contentType: "application/x-www-form-urlencoded", description: "Slack's block_actions payload" },
    responses: signed,
  },
  {
    method: "post",
    path: "/api/integrations/slack/events",
    operationId: "receiveSlackEvent",
    summary: "Slack's Events API: url_verification, and replies in a question's thread; signed by Slack (v0 HMAC)",
    tags: ["slack"],
    auth: false,
    rawBody: { contentType: "application/json", description: "An Events API envelope" },
    responses: signed,
  },
  {
    method: "get",
    path: "/api/workspaces/{id}/slack",
    operationId: "getSlackStatus",
    summary: "Whether the server's Slack app works (Slack's auth.test) and how many members it recognises (owners)",
    tags: ["slack"],
    params: workspaceParams,
    responses: {
      200: { description: "The Slack app's state for this workspace", schema: slackStatus },
      403: { description: "Only workspace owners may do this" },
    },
  },
];
