import { slackConfig } from "@/lib/config";
import { HttpError } from "@/lib/platform/errors";
import { slackSignatureRefusal, unverifiableSlackRequest } from "@/lib/slack/verify-request";

// Both Slack endpoints check Slack's signature before they parse a byte of the body (docs/slack.md).

/** Slack's requests are small; anything larger is not from Slack and is refused unread (413). */
export const MAX_SLACK_BODY_BYTES = 1024 * 1024;

/** 401 from the headers alone: no signing secret here, no signature, or a timestamp out of the window. */
export function refuseUnsignedSlackRequest(request: Request): void {
  const reason = unverifiableSlackRequest(request.headers, slackConfig()?.signingSecret ?? null);
  if (reason) throw new HttpError(401, reason);
}

/** 401 unless the exact body was signed by Slack. */
export function assertSignedBySlack(rawBody: string, headers: Headers): void {
  const reason = slackSignatureRefusal(rawBody, headers, slackConfig()?.signingSecret ?? null);
  if (reason) throw new HttpError(401, reason);
}
