// The channels `npm run bench:answers` answers through. Each knows how to find a question's message
// at its local stand-in (the same ones the tests use), how to answer it there as a person would,
// and how many messages each question got (to count duplicates after a kill -9).
import { startFakeSlack } from "../../../tests/fixtures/fake-slack";
import { startDovecot, startSmtpCapture } from "../../../tests/fixtures/mail-servers";
import { startPushService } from "../../../tests/fixtures/push-service";

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

export async function pushChannel(): Promise<AnswerChannel> {
  const push = await startPushService();
  const messageFor = async (marker: string) => {
    for (;;) {
      const message = push.messages.find((m) => m.payload?.actions?.length > 0 && JSON.stringify(m.payload).includes(marker));
      if (message) return message;
      await sleep(20);
    }
  };
  return {
    name: "Push action (RFC 8030, decrypted)",
    env: { PUSH_ALLOW_PRIVATE_ENDPOINTS: "127.0.0.1", NODE_EXTRA_CA_CERTS: push.caFile },
    async enrol(serverUrl, person) {
      const response = await fetch(`${serverUrl}/api/me/push-subscriptions`, {
        method: "POST",
        headers: { authorization: `Bearer ${person.token}`, "content-type": "application/json" },
        body: JSON.stringify(push.subscription()),
      });
      if (response.status !== 201) throw new Error(`push subscription: ${response.status} ${await response.text()}`);
    },
    async answer(serverUrl, _person, _questionId, marker, index) {
      const action = (await messageFor(marker)).payload.actions[index];
      // What the service worker sends when the person taps the action.
      const sent = Date.now();
      const response = await fetch(`${serverUrl}/api/push/answers`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ key: action.key, answer: action.answer }),
      });
      if (response.status !== 200) throw new Error(`push answer: ${response.status} ${await response.text()}`);
      return sent;
    },
    deliveries: (marker) => push.messages.filter((m) => JSON.stringify(m.payload).includes(marker)).length,
    close: () => push.close(),
  };
}
