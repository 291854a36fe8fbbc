// The channels `npm run bench:answers` answers through. Each knows how to find a question's message
// at its local stand-in (the same ones the tests use), how to answer it there as a person would,
// and how many messages each question got (to count duplicates after a kill -9).
import { startFakeSlack } from "../../../tests/fixtures/fake-slack";

export const SLACK_CHANNEL = "C0BENCH";
const SIGNING_SECRET = "bench-signing-secret";

export interface Person {
  id: string;
  username: string;
  email: string;
  token: string;
}

export interface AnswerChannel {
  name: string;
  /** The server's settings for this channel. */
  env: Record<string, string>;
  /** Whatever the channel needs of a person before questions reach them (a push subscription…). */
  enrol(serverUrl: string, person: Person): Promise<void>;
  /** Waits for the question's message, then answers its option `index` as `person`; resolves when the reply is handed over (epoch ms). */
  answer(serverUrl: string, person: Person, questionId: string, marker: string, index: number): Promise<number>;
  /** How many messages carried `marker` (a question's unique words) to the person. */
  deliveries(marker: string): number;
  close(): Promise<void>;
}

export async function slackChannel(people: Record<string, string>): Promise<AnswerChannel> {
  const slack = await startFakeSlack({ botToken: "xoxb-bench", signingSecret: SIGNING_SECRET, people });
  const postOf = async (questionId: string) => {
    for (;;) {
      const posted = slack.callsOf("chat.postMessage").find((call) => JSON.stringify(call.args.blocks ?? []).includes(questionId));
      if (posted) return posted;
      await sleep(20);
    }
  };
  return {
    name: "Slack button (signed interaction)",
    env: { SLACK_BOT_TOKEN: "xoxb-bench", SLACK_SIGNING_SECRET: SIGNING_SECRET, SLACK_API_URL: slack.apiUrl },
    enrol: async () => {},
    async answer(serverUrl, person, questionId, _marker, index) {
      const post = await postOf(questionId);
      const buttons = post.args.blocks.find((block: { type: string }) => block.type === "actions").elements;
      const slackUser = people[person.email];
      const body = slack.interaction(slackUser, SLACK_CHANNEL, post.result.ts, {
        action_id: `answer_${index}`,
        value: buttons[index].value,
      });
      const sent = Date.now();
      const response = await fetch(`${serverUrl}/api/integrations/slack/interactions`, {
        method: "POST",
        body,
        headers: slack.signed(body, "application/x-www-form-urlencoded"),
      });
      if (response.status !== 200) throw new Error(`Slack interaction: ${response.status} ${await response.text()}`);
      return sent;
    },
    // Direct messages to the person (the question's post in the channel is the workspace's, counted apart).
    deliveries: (marker) =>
      slack.callsOf("chat.postMessage").filter((call) => call.args.channel !== SLACK_CHANNEL && JSON.stringify(call.args).includes(marker))
        .length,
    close: () => slack.close(),
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
