import type { WebClient } from "@slack/web-api";
import { slackConfig } from "@/lib/config";

// One Web API client per process, from SLACK_BOT_TOKEN and SLACK_API_URL. Its own retries are kept
// short: the reaction that posts (lib/reactions/slack-questions.ts) is retried with back-off by the
// reactions worker, and a client sleeping through Slack's rate-limit minutes would hold that worker.
// The library is loaded with the first client: a server without Slack never loads it at start.

let cached: { key: string; client: WebClient } | null = null;

/** The bot's client, or null while the server has no Slack app configured. */
export async function slackClient(): Promise<WebClient | null> {
  const config = slackConfig();
  if (!config) return null;
  const key = `${config.apiUrl} ${config.botToken}`;
  if (cached?.key !== key) {
    const { LogLevel, WebClient } = await import("@slack/web-api");
    const client = new WebClient(config.botToken, {
      slackApiUrl: `${config.apiUrl}/`,
      logLevel: LogLevel.ERROR,
      retryConfig: { retries: 1, maxTimeout: 1_000 },
      rejectRateLimitedCalls: true,
      timeout: 10_000,
    });
    cached = { key, client };
  }
  return cached.client;
}
