import { z } from "zod";

// What the board's own API says about Slack (docs/slack.md). What Slack sends is parsed where it
// arrives (receive-interaction.ts, receive-event.ts), after its signature is checked.

export const slackStatus = z.object({
  configured: z.boolean().describe("The server has a Slack app (SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET)"),
  channel: z.string().nullable().describe("The workspace's channel for questions (slack_channel)"),
  team_id: z.string().nullable().describe("The Slack workspace the bot token belongs to, as auth.test says"),
  error: z.string().nullable().describe("Why Slack refused the bot token (auth.test), in Slack's words"),
  linked_members: z.int().describe("Members who may answer whose Slack account was found by their email"),
});

/** The two endpoints' answer to Slack: what was done, or why not (in words Slack shows nobody). */
export const slackAnswer = z.object({
  ok: z.boolean(),
  detail: z.string().optional().describe("Why the answer was not taken, as told to the person in Slack"),
  ignored: z.boolean().optional().describe("Not something the board acts on"),
  duplicate: z.boolean().optional().describe("An event_id taken before: a retry, nothing changed"),
  challenge: z.string().optional().describe("url_verification's challenge, echoed"),
});

/** What a Slack endpoint answers at once (within Slack's 3 s), and what it says to the person after. */
export type SlackOutcome = { status: number; body: Record<string, unknown>; reply?: () => Promise<void> };
