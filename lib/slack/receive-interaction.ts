import { z } from "zod";
import type { Db } from "@/lib/db/client";
import type { SlackOutcome } from "@/lib/slack/schemas";
import { slackConfig } from "@/lib/config";
import { answerFromSlack } from "@/lib/slack/answer-from-slack";
import { ANSWER_ACTION_PREFIX, parseAnswerValue } from "@/lib/slack/question-message";

// POST /api/integrations/slack/interactions, after its signature checked out: a click on one of a
// question's buttons (a `block_actions` payload, form-encoded as `payload=<json>`). The answer is
// taken before Slack is answered (one transaction, well inside Slack's 3 s); a refusal is said to the
// clicker alone, through the interaction's response_url, after. A click Slack delivers twice finds
// the question answered by that person already, and changes nothing.

const blockActions = z.object({
  type: z.literal("block_actions"),
  user: z.object({ id: z.string().min(1) }),
  channel: z.object({ id: z.string() }).optional(),
  response_url: z.string().optional(),
  actions: z.array(z.object({ action_id: z.string(), value: z.string().optional() })).min(1),
});

export async function receiveSlackInteraction(db: Db, rawBody: string): Promise<SlackOutcome> {
  let payload: unknown;
  try {
    payload = JSON.parse(new URLSearchParams(rawBody).get("payload") ?? "");
  } catch {
    return { status: 400, body: { detail: "The body is not a Slack interaction (payload=<JSON>)" } };
  }
  const parsed = blockActions.safeParse(payload);
  // Other kinds of interaction (shortcuts, views) are not the board's: acknowledged, ignored.
  if (!parsed.success) return { status: 200, body: { ok: true, ignored: true } };
  const action = parsed.data.actions.find((candidate) => candidate.action_id.startsWith(ANSWER_ACTION_PREFIX));
  const target = parseAnswerValue(action?.value);
  if (!target) return { status: 200, body: { ok: true, ignored: true } };

  const question = await db.question.findUnique({
    where: { id: target.questionId },
    select: { options: true, slackMessage: { select: { channel: true } } },
  });
  const option = Array.isArray(question?.options) ? question.options[target.index] : undefined;
  // The button must be on the question's own message: a value copied into another channel answers nothing.
  const sameChannel = !parsed.data.channel || question?.slackMessage?.channel === parsed.data.channel.id;
  const refusal =
    typeof option !== "string" || !sameChannel
      ? "That button does not belong to an open question of the board."
      : await answerFromSlack(db, { slackUserId: parsed.data.user.id, questionId: target.questionId, answer: option });
  const responseUrl = parsed.data.response_url;
  return {
    status: 200,
    body: { ok: refusal === null, ...(refusal ? { detail: refusal } : {}) },
    reply: refusal && responseUrl ? () => sayToClicker(responseUrl, refusal) : undefined,
  };
}

/** An ephemeral message to the person who clicked, through the interaction's own response_url. */
async function sayToClicker(responseUrl: string, text: string) {
  if (!slackOwned(responseUrl)) return;
  const response = await fetch(responseUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ response_type: "ephemeral", replace_original: false, text }),
    signal: AbortSignal.timeout(10_000),
  });
  await response.body?.cancel();
}

// A response_url is Slack's own (hooks.slack.com), or the configured Slack's in tests: a forged one
// would make the server post where the sender likes.
function slackOwned(url: string): boolean {
  try {
    const parsed = new URL(url);
    const api = new URL(slackConfig()?.apiUrl ?? "https://slack.com/api");
    return (parsed.protocol === "https:" && parsed.hostname === "hooks.slack.com") || parsed.origin === api.origin;
  } catch {
    return false;
  }
}
