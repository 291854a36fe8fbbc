// The channels `npm run bench:answers` answers through. Each knows how to find a question's message
// at its local stand-in (the same ones the tests use), how to answer it there as a person would,
// and how many messages each question got (to count duplicates after a kill -9).
import { startFakeSlack } from "../../../tests/fixtures/fake-slack";
import { startDovecot, startSmtpCapture } from "../../../tests/fixtures/mail-servers";

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
  /**
   * Waits for the question's message (its id, or `marker`: words only its message holds), then answers
   * its option `index` as `person`; resolves with the moment the reply was handed over (epoch ms).
   */
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

export async function emailChannel(): Promise<AnswerChannel> {
  const smtp = await startSmtpCapture();
  const mailbox = "board@bench.example.com";
  const imap = await startDovecot({ [mailbox]: "bench-mailbox-password" });
  const mailWith = async (to: string, marker: string) => {
    for (;;) {
      const mail = smtp.mails.find((m) => JSON.stringify(m.to).includes(to) && (m.text ?? "").includes(marker) && m.replyTo);
      if (mail) return mail;
      await sleep(20);
    }
  };
  return {
    name: "Email reply (IMAP IDLE)",
    env: {
      SMTP_URL: smtp.url,
      MAIL_FROM: "Taskboard <board@bench.example.com>",
      INCOMING_EMAIL_IMAP_URL: imap.urlFor(mailbox),
      INCOMING_EMAIL_ADDRESS: "reply+%{key}@bench.example.com",
      PUBLIC_URL: "http://board.bench.test",
    },
    enrol: async () => {},
    async answer(_serverUrl, person, _questionId, marker, index) {
      const mail = await mailWith(person.email, marker);
      const raw = [
        `From: ${person.email}`,
        `To: ${mail.replyTo!.value[0].address}`,
        `Subject: Re: ${mail.subject}`,
        `Message-ID: <${Date.now()}.${Math.random().toString(36).slice(2)}@bench.example.com>`,
        `Date: ${new Date().toUTCString()}`,
        "Content-Type: text/plain; charset=utf-8",
        "",
        String(index + 1),
      ].join("\r\n");
      const sent = Date.now();
      await imap.deliver(mailbox, raw);
      return sent;
    },
    deliveries: (marker) => smtp.mails.filter((m) => (m.text ?? "").includes(marker)).length,
    close: async () => {
      await imap.stop();
      await smtp.close();
    },
  };
}
