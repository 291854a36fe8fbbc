import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  engineServer,
  eventually,
  finished,
  FIXTURE_AGENT,
  newStore,
  newTask,
  workspaceOn,
  type EngineServer,
  type Store,
} from "../helpers/engine";
import { startFakeSlack, type FakeSlack } from "../fixtures/fake-slack";

// Agents' questions in Slack (docs/slack.md), against a fake Slack that speaks its Web API and signs
// what it sends as Slack does. Its own server: the Slack app is a server-wide setting.

const FAKE_ACP = path.resolve("tests/fixtures/fake-acp-agent.mjs");
const CHANNEL = "C0QUESTIONS";
const SECRET = "slack-signing-secret";

let slack: FakeSlack;
let store: Store;
let server: EngineServer;
let token: string;
let wsId: string;
const people: Record<string, { id: string; token: string }> = {};

beforeAll(async () => {
  slack = await startFakeSlack({
    botToken: "xoxb-test",
    signingSecret: SECRET,
    people: { "ann@example.com": "UANN", "vic@example.com": "UVIC", "out@example.com": "UOUT" },
  });
  store = await newStore("slack");
  server = await engineServer(store, {
    AGENT_COMMAND: FIXTURE_AGENT,
    AGENT_KILL_GRACE_SECONDS: "1",
    SLACK_BOT_TOKEN: "xoxb-test",
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_API_URL: slack.apiUrl,
  });
  ({ token, wsId } = await workspaceOn(server));
  for (const [name, role] of [
    ["ann", "member"],
    ["vic", "viewer"],
    ["out", null],
  ] as const) {
    const made = await server.call("POST", "/api/users", {
      token,
      json: { username: `${name}-${wsId.slice(-6)}`, password: "password123", email: `${name.toUpperCase()}@example.com` },
    });
    expect(made.status).toBe(201);
    expect(made.body.email).toBe(`${name}@example.com`);
    people[name] = { id: made.body.id, token: "" };
    if (role)
      expect(
        (await server.call("POST", `/api/workspaces/${wsId}/members`, { token, json: { username: made.body.username, role } })).status,
      ).toBe(201);
  }
  const set = await server.call("PATCH", `/api/workspaces/${wsId}`, { token, json: { slack_channel: CHANNEL } });
  expect(set.body.slack_channel).toBe(CHANNEL);
});

afterAll(async () => {
  await server?.stop();
  await store?.drop();
  await slack?.close();
});

const base = () => `/api/workspaces/${wsId}`;

function send(path: string, body: string, headers: Record<string, string>) {
  return fetch(`${server.url}${path}`, { method: "POST", body, headers });
}

function click(user: string, ts: string, value: string, index: number) {
  const body = slack.interaction(user, CHANNEL, ts, { action_id: `answer_${index}`, value });
  return send("/api/integrations/slack/interactions", body, slack.signed(body, "application/x-www-form-urlencoded"));
}

function reply(eventId: string, user: string, threadTs: string, text: string) {
  const body = slack.threadReply(eventId, user, CHANNEL, threadTs, text);
  return send("/api/integrations/slack/events", body, slack.signed(body, "application/json"));
}

/** The post of a question in the channel, once the reaction has made it, with the ts Slack gave it. */
async function postOf(questionId: string) {
  return eventually(
    async () => {
      const posted = slack.callsOf("chat.postMessage").find((call) => JSON.stringify(call.args.blocks ?? []).includes(questionId));
      return posted && { ts: posted.result.ts as string, args: posted.args };
    },
    20_000,
    "the question's Slack post",
  );
}

async function question(fields: Record<string, unknown>) {
  const task = await newTask(server.call, token, wsId, { title: `asks ${Date.now()}` });
  const asked = await server.call("POST", `${base()}/questions`, { token, json: { task_id: task.id, ...fields } });
  expect(asked.status).toBe(201);
  return asked.body as { id: string; task_id: string };
}

describe("Slack's requests are checked before anything is read into the board", () => {
  it("answers url_verification with its challenge, and refuses unsigned, forged and stale requests with 401", async () => {
    const body = JSON.stringify({ type: "url_verification", challenge: "c-123", token: "unused" });
    const ok = await send("/api/integrations/slack/events", body, slack.signed(body, "application/json"));
    expect([ok.status, await ok.json()]).toEqual([200, { challenge: "c-123" }]);

    const unsigned = await send("/api/integrations/slack/events", body, { "content-type": "application/json" });
    expect(unsigned.status).toBe(401);
    expect((await unsigned.json()).detail).toMatch(/X-Slack-Signature/);
    const forged = await send("/api/integrations/slack/events", body, slack.signed(body, "application/json", undefined, "not-the-secret"));
    expect([forged.status, (await forged.json()).detail]).toEqual([401, "X-Slack-Signature does not match"]);
    const stale = await send(
      "/api/integrations/slack/events",
      body,
      slack.signed(body, "application/json", Math.floor(Date.now() / 1000) - 301),
    );
    expect(stale.status).toBe(401);
    expect((await stale.json()).detail).toMatch(/more than 5 minutes/);
    // A body changed after signing (a forged click) is refused, and answers nothing.
    const asked = await question({ content: "Ship it?", options: ["Yes", "No"] });
    const clickBody = slack.interaction("UANN", CHANNEL, "1", { action_id: "answer_0", value: `${asked.id}:0` });
    const headers = slack.signed(clickBody, "application/x-www-form-urlencoded");
    const tampered = await send("/api/integrations/slack/interactions", clickBody.replace("answer_0", "answer_1"), headers);
    expect(tampered.status).toBe(401);
    const still = await server.call("GET", `${base()}/questions?task_id=${asked.task_id}`, { token });
    expect(still.body[0]).toMatchObject({ status: "open", answer: null });
  });
});

describe("a question in Slack", () => {
  it("is posted with its options as buttons; a member's click answers it and the agent's run resumes with that option", async () => {
    const agent = await server.call("POST", `${base()}/agents`, {
      token,
      json: { name: "Fake ACP", kind: "acp", command: process.execPath, args: [FAKE_ACP] },
    });
    expect(agent.status).toBe(201);
    const task = await newTask(server.call, token, wsId, { title: "needs permission" });
    const started = await server.call("POST", `${base()}/tasks/${task.id}/runs`, {
      token,
      json: { instructions: "@fake permission", agent_id: agent.body.id },
    });
    expect(started.status).toBe(202);
    const asked = await eventually(async () => {
      const list = await server.call("GET", `${base()}/questions?task_id=${task.id}&status=open`, { token });
      return list.body[0] as { id: string; options: string[] } | undefined;
    }, 20_000);

    const post = await postOf(asked.id);
    expect(post.args.channel).toBe(CHANNEL);
    const buttons = post.args.blocks.find((block: { type: string }) => block.type === "actions").elements;
    expect(buttons.slice(0, 3).map((button: { text: { text: string } }) => button.text.text)).toEqual([
      "1. Allow once",
      "2. Always allow",
      "3. Reject",
    ]);
    // Ann's Slack account was found by her email when the question was posted.
    expect(slack.callsOf("users.lookupByEmail").map((call) => call.args.email)).toContain("ann@example.com");

    const clicked = await click("UANN", post.ts, buttons[1].value, 1);
    expect([clicked.status, await clicked.json()]).toEqual([200, { ok: true }]);
    const answered = (await server.call("GET", `${base()}/questions?task_id=${task.id}`, { token })).body[0];
    expect(answered).toMatchObject({ status: "answered", answer: "Always allow", answered_by: people.ann.id, answered_via: "slack" });

    const done = await finished(server.call, token, wsId, started.body.id);
    expect(done.status).toBe("succeeded");
    const log = await server.call("GET", `${base()}/executions/${started.body.id}/log`, { token });
    expect(JSON.stringify(log.body.entries)).toContain("Permission answered: allow-always");

    // The message now says who answered what; its buttons are gone.
    const update = await eventually(
      async () =>
        slack
          .callsOf("chat.update")
          .find((call) => JSON.stringify(call.args.blocks).includes(asked.id) || call.args.text.includes("Always allow")),
      20_000,
    );
    expect(update.args.text).toMatch(/^Answered by ann-\w+ via slack: Always allow$/);
    expect(JSON.stringify(update.args.blocks)).not.toContain('"actions"');

    // A second click is told, in words and to the clicker alone, that it came too late.
    const again = await click("UANN", post.ts, buttons[0].value, 0);
    expect((await again.json()).detail).toMatch(/already answered by ann-\w+ via slack/i);
    await eventually(async () => slack.responses.find((said) => /already answered/i.test(said.text)), 10_000);
  });

  it("refuses a viewer and a Slack account linked to nobody, in words, and changes nothing", async () => {
    const asked = await question({ content: "Which database?", options: ["PostgreSQL", "SQLite"] });
    const post = await postOf(asked.id);
    const value = post.args.blocks.find((block: { type: string }) => block.type === "actions").elements[0].value;

    const viewer = await click("UVIC", post.ts, value, 0);
    expect((await viewer.json()).detail).toMatch(/^Viewers cannot answer questions/);
    const stranger = await click("UNOBODY", post.ts, value, 0);
    expect((await stranger.json()).detail).toMatch(/not linked to anyone on the board/);
    // Out has a Slack account and an email, but no membership here: never looked up, never linked.
    expect(slack.callsOf("users.lookupByEmail").map((call) => call.args.email)).not.toContain("out@example.com");
    await eventually(
      async () => (slack.responses.filter((said) => said.response_type === "ephemeral").length >= 2 ? true : undefined),
      10_000,
    );

    const still = await server.call("GET", `${base()}/questions?task_id=${asked.task_id}`, { token });
    expect(still.body[0]).toMatchObject({ status: "open", answer: null, answered_by: null });
  });

  it("is answered by a reply in its thread, by number, once however often Slack delivers the event", async () => {
    const asked = await question({ content: "Merge now?", options: ["Merge", "Wait"] });
    const threadTs = (await postOf(asked.id)).ts;

    const first = await reply("Ev1", "UANN", threadTs, "2");
    expect([first.status, await first.json()]).toEqual([200, { ok: true }]);
    const retried = await reply("Ev1", "UANN", threadTs, "1");
    expect(await retried.json()).toEqual({ ok: true, duplicate: true });
    const answered = await server.call("GET", `${base()}/questions?task_id=${asked.task_id}`, { token });
    expect(answered.body[0]).toMatchObject({ status: "answered", answer: "Wait", answered_by: people.ann.id });
  });

  it("takes words for a question of words, and tells a viewer's reply why not in the thread", async () => {
    const asked = await question({ content: "What should the release be called?" });
    const threadTs = (await postOf(asked.id)).ts;
    const viewer = await reply("Ev2", "UVIC", threadTs, "Aurora");
    expect((await viewer.json()).detail).toMatch(/^Viewers cannot answer/);
    await eventually(
      async () =>
        slack.callsOf("chat.postMessage").find((call) => call.args.thread_ts === threadTs && /<@UVIC> Viewers/.test(call.args.text)),
      10_000,
    );
    const words = await reply("Ev3", "UANN", threadTs, "Aurora borealis");
    expect(await words.json()).toEqual({ ok: true });
    const answered = await server.call("GET", `${base()}/questions?task_id=${asked.task_id}`, { token });
    expect(answered.body[0]).toMatchObject({ answer: "Aurora borealis", answered_by: people.ann.id });
  });
});

describe("a person's notifications on the slack channel", () => {
  it("come as a direct message to the Slack account with their email", async () => {
    const task = await newTask(server.call, token, wsId, {
      title: "Write the release notes",
      assignees: [{ kind: "user", id: people.ann.id }],
    });
    const dm = await eventually(
      async () =>
        slack.callsOf("chat.postMessage").find((call) => call.args.channel === "UANN" && String(call.args.text).includes(task.title)),
      20_000,
      "a direct message to Ann",
    );
    expect(dm.args.blocks).toBeUndefined();
    const deliveries = await eventually(async () => {
      const login = await server.call("POST", "/api/auth/login", { json: { username: `ann-${wsId.slice(-6)}`, password: "password123" } });
      const list = await server.call("GET", "/api/me/notification-deliveries", { token: login.body.access_token });
      return (list.body as { channel: string; status: string; title: string; attempts: number }[]).find(
        (delivery) => delivery.channel === "slack" && delivery.status === "sent",
      );
    }, 20_000);
    expect(deliveries).toMatchObject({ attempts: 1, title: expect.stringContaining(task.title) });
  });
});

describe("Settings → Slack", () => {
  it("tells an owner whether Slack takes the token and how many members it recognises; nobody else may ask", async () => {
    const status = await server.call("GET", `${base()}/slack`, { token });
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ configured: true, channel: CHANNEL, team_id: "T0TEST", error: null });
    // Ann and Vic were found by their addresses when the first question was posted; Vic is a viewer.
    expect(status.body.linked_members).toBe(1);
    expect(slack.callsOf("auth.test").length).toBeGreaterThan(0);

    expect((await server.call("GET", `${base()}/slack`)).status).toBe(401);
    const login = await server.call("POST", "/api/auth/login", { json: { username: `ann-${wsId.slice(-6)}`, password: "password123" } });
    const member = await server.call("GET", `${base()}/slack`, { token: login.body.access_token });
    expect([member.status, member.body.detail]).toEqual([403, "Only workspace owners may do this"]);
    const outsider = await server.call("POST", "/api/auth/login", { json: { username: `out-${wsId.slice(-6)}`, password: "password123" } });
    expect((await server.call("GET", `${base()}/slack`, { token: outsider.body.access_token })).status).toBe(404);
    const wrong = await server.call("PATCH", `${base()}`, { token, json: { slack_channel: "#general" } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.detail[0]).toMatchObject({ loc: ["body", "slack_channel"] });
  });
});
