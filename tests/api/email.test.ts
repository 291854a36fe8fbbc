import crypto from "node:crypto";
import path from "node:path";
import type { ParsedMail } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineServer, eventually, finished, newStore, newTask, workspaceOn, type EngineServer, type Store } from "../helpers/engine";
import { dovecotMissing, startDovecot, startSmtpCapture, type Dovecot, type SmtpCapture } from "../fixtures/mail-servers";

// Questions by mail (docs/email.md), against real mail servers: what the board sends goes to an SMTP
// server from `smtp-server`; replies are put into a Dovecot IMAP mailbox, which the board reads with
// IDLE. Its own server: mail is a server-wide setting.

const FAKE_ACP = path.resolve("tests/fixtures/fake-acp-agent.mjs");
const MAILBOX = "board@example.com";
const TEMPLATE = "reply+%{key}@example.com";

let smtp: SmtpCapture;
let imap: Dovecot;
let store: Store;
let server: EngineServer;
let token: string;
let wsId: string;
const people: Record<string, { id: string; username: string; email: string }> = {};

const env = () => ({
  AGENT_KILL_GRACE_SECONDS: "1",
  SMTP_URL: smtp.url,
  MAIL_FROM: "Taskboard <board@example.com>",
  INCOMING_EMAIL_IMAP_URL: imap.urlFor(MAILBOX),
  INCOMING_EMAIL_ADDRESS: TEMPLATE,
  EMAIL_DIGEST_MINUTES: "0.05",
  PUBLIC_URL: "http://board.example.test",
});

beforeAll(async () => {
  const missing = dovecotMissing();
  if (missing) throw new Error(missing);
  smtp = await startSmtpCapture();
  imap = await startDovecot({ [MAILBOX]: "mailbox-password" });
  store = await newStore("email");
  server = await engineServer(store, env(), "email");
  ({ token, wsId } = await workspaceOn(server));
  for (const name of ["ann", "bea", "cid"]) {
    const made = await server.call("POST", "/api/users", {
      token,
      json: { username: `${name}-${wsId.slice(-6)}`, password: "password123", email: `${name}@example.com` },
    });
    expect(made.status).toBe(201);
    people[name] = { id: made.body.id, username: made.body.username, email: `${name}@example.com` };
    const joined = await server.call("POST", `${base()}/members`, { token, json: { username: made.body.username, role: "member" } });
    expect(joined.status).toBe(201);
  }
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await store?.drop();
  await imap?.stop();
  await smtp?.close();
});

const base = () => `/api/workspaces/${wsId}`;
const assigned = (name: string) => [{ kind: "user", id: people[name].id }];

/** The mail a person got that carries `words`. */
function mailTo(name: string, words: string): Promise<ParsedMail> {
  return eventually(
    async () => smtp.mails.find((mail) => JSON.stringify(mail.to).includes(people[name].email) && (mail.text ?? "").includes(words)),
    20_000,
    `${name}'s mail with "${words}"`,
  );
}

function reply(
  mail: ParsedMail,
  from: string,
  text: string,
  headers: Record<string, string> = {},
  messageId = `${crypto.randomUUID()}@mail.example.com`,
) {
  const to = mail.replyTo?.value[0]?.address;
  expect(to).toMatch(/^reply\+[A-Za-z0-9_-]{43}@example\.com$/);
  return [
    `From: ${from}`,
    `To: ${to}`,
    `Subject: Re: ${mail.subject}`,
    `Message-ID: <${messageId}>`,
    `In-Reply-To: ${mail.messageId}`,
    `Date: ${new Date().toUTCString()}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    "Content-Type: text/plain; charset=utf-8",
    "",
    text,
  ].join("\r\n");
}

const quoted = (mail: ParsedMail) =>
  `\r\n\r\nOn Sat, 28 Nov 2026, Taskboard <board@example.com> wrote:\r\n${(mail.text ?? "")
    .split("\n")
    .map((line) => `> ${line}`)
    .join("\r\n")}`;

async function questionOf(taskId: string) {
  return (await server.call("GET", `${base()}/questions?task_id=${taskId}`, { token })).body[0];
}

async function ask(name: string, fields: Record<string, unknown>) {
  const task = await newTask(server.call, token, wsId, { title: `asks ${crypto.randomUUID().slice(0, 8)}`, assignees: assigned(name) });
  const asked = await server.call("POST", `${base()}/questions`, { token, json: { task_id: task.id, ...fields } });
  expect(asked.status).toBe(201);
  return { task, question: asked.body as { id: string } };
}

describe("a question by mail", () => {
  it("mails an agent's permission question with its options; a reply with a number answers it and the run resumes", async () => {
    const agent = await server.call("POST", `${base()}/agents`, {
      token,
      json: { name: "Fake ACP", kind: "acp", command: process.execPath, args: [FAKE_ACP] },
    });
    const task = await newTask(server.call, token, wsId, { title: "needs permission", assignees: assigned("ann") });
    const run = await server.call("POST", `${base()}/tasks/${task.id}/runs`, {
      token,
      json: { instructions: "@fake permission", agent_id: agent.body.id },
    });
    expect(run.status).toBe(202);
    const mail = await mailTo("ann", "1. Allow once");
    expect(mail.text).toContain("2. Always allow");
    expect(mail.text).toContain("Reply to this mail with the number or the name of an option to answer.");
    expect(mail.text).toContain(`http://board.example.test/w/${wsId}?task=${task.id}`);
    expect(mail.headers.get("auto-submitted")).toBe("auto-generated");

    // The reply quotes the mail and ends with a signature: only "2" is the answer.
    await imap.deliver(MAILBOX, reply(mail, "Ann <ANN@example.com>", `2\r\n\r\n-- \r\nAnn${quoted(mail)}`));
    const answered = await eventually(async () => {
      const question = await questionOf(task.id);
      return question?.status === "answered" ? question : undefined;
    }, 20_000);
    expect(answered).toMatchObject({ answer: "Always allow", answered_by: people.ann.id, answered_via: "email" });
    expect((await finished(server.call, token, wsId, run.body.id)).status).toBe("succeeded");
    const log = await server.call("GET", `${base()}/executions/${run.body.id}/log`, { token });
    expect(JSON.stringify(log.body.entries)).toContain("Permission answered: allow-always");

    // A second reply is told who answered first, by mail, and changes nothing.
    await imap.deliver(MAILBOX, reply(mail, "ann@example.com", "1"));
    const late = await mailTo("ann", "already answered");
    expect(late.text).toMatch(/already answered by ann-\w+ via email/i);
    expect(late.headers.get("auto-submitted")).toBe("auto-replied");
    expect((await questionOf(task.id)).answer).toBe("Always allow");
    // Both replies were read and flagged.
    const flags = [...(await imap.flags(MAILBOX)).values()];
    expect(flags.length).toBe(2);
    expect(flags.every((list) => list.includes("\\Seen"))).toBe(true);
  }, 60_000);

  it("takes words for a question that allows them, and an option's name", async () => {
    const free = await ask("bea", { content: "What should the cache be called?" });
    const freeMail = await mailTo("bea", "What should the cache be called?");
    expect(freeMail.text).toContain("Reply to this mail to answer.");
    await imap.deliver(MAILBOX, reply(freeMail, "bea@example.com", `Call it hotcache, please.${quoted(freeMail)}`));
    await eventually(async () => ((await questionOf(free.task.id)).answer === "Call it hotcache, please." ? true : undefined), 20_000);

    const named = await ask("bea", { content: "Which database?", options: ["PostgreSQL", "SQLite"] });
    const namedMail = await mailTo("bea", "Which database?");
    await imap.deliver(MAILBOX, reply(namedMail, "bea@example.com", "sqlite"));
    await eventually(async () => ((await questionOf(named.task.id)).answer === "SQLite" ? true : undefined), 20_000);
  }, 60_000);
});

describe("what a reply cannot do", () => {
  it("refuses mail from another address in words, and answers nothing", async () => {
    const { task } = await ask("ann", { content: "Deploy on Friday?", options: ["Yes", "No"] });
    const mail = await mailTo("ann", "Deploy on Friday?");
    await imap.deliver(MAILBOX, reply(mail, "mallory@example.org", "1"));
    const told = await eventually(async () => smtp.mails.find((m) => JSON.stringify(m.to).includes("mallory@example.org")), 20_000);
    expect(told.text).toMatch(/^This question was mailed to someone else, so a reply from mallory@example\.org cannot answer it/);
    expect(told.text).toContain("Nothing was changed on the board.");
    expect(await questionOf(task.id)).toMatchObject({ status: "open", answer: null });
  }, 60_000);

  it("ignores auto-replies and bounces, and reads a message delivered twice once", async () => {
    const { task } = await ask("cid", { content: "Rename the bucket?", options: ["Yes", "No"] });
    const mail = await mailTo("cid", "Rename the bucket?");
    await imap.deliver(MAILBOX, reply(mail, "cid@example.com", "I am away until Monday.", { "Auto-Submitted": "auto-replied" }));
    await imap.deliver(MAILBOX, reply(mail, "MAILER-DAEMON@example.com", "Delivery failed"));
    await allRead();
    expect(await questionOf(task.id)).toMatchObject({ status: "open" });

    const twice = reply(mail, "cid@example.com", "2", {}, "same-message@mail.example.com");
    await imap.deliver(MAILBOX, twice);
    await imap.deliver(MAILBOX, twice);
    await eventually(async () => ((await questionOf(task.id)).answer === "No" ? true : undefined), 20_000);
    await allRead();
    // Neither the machines nor the second copy got an answer by mail.
    const answered = smtp.mails.filter(
      (m) => /cid@example\.com|mailer-daemon/i.test(JSON.stringify(m.to)) && /Nothing was changed/.test(m.text ?? ""),
    );
    expect(answered).toEqual([]);
  }, 60_000);

  it("refuses a viewer's reply in words (a member made a viewer after the mail)", async () => {
    const { task } = await ask("bea", { content: "Drop the old table?", options: ["Yes", "No"] });
    const mail = await mailTo("bea", "Drop the old table?");
    // No route changes a role in place: out, and back in as a viewer.
    expect((await server.call("DELETE", `${base()}/members/${people.bea.id}`, { token })).status).toBe(204);
    const back = await server.call("POST", `${base()}/members`, { token, json: { username: people.bea.username, role: "viewer" } });
    expect(back.status).toBe(201);
    await imap.deliver(MAILBOX, reply(mail, "bea@example.com", "1"));
    const told = await mailTo("bea", "Viewers cannot answer questions");
    expect(told.text).toContain("Nothing was changed on the board.");
    expect(await questionOf(task.id)).toMatchObject({ status: "open" });
  }, 60_000);

  it("gathers a person's other mails into one digest when they asked for it", async () => {
    const settings = (await server.call("GET", "/api/me/notification-settings", { token: await login("ann") })).body;
    const saved = await server.call("PUT", "/api/me/notification-settings", {
      token: await login("ann"),
      json: { ...settings, configured_channels: undefined, digest: true },
    });
    expect(saved.status).toBe(200);
    const first = await newTask(server.call, token, wsId, { title: "digest one", assignees: assigned("ann") });
    const second = await newTask(server.call, token, wsId, { title: "digest two", assignees: assigned("ann") });
    const digest = await mailTo("ann", "digest two");
    expect(digest.subject).toMatch(/^\d+ updates from the task board$/);
    expect(digest.text).toContain("digest one");
    expect(smtp.mails.filter((m) => JSON.stringify(m.to).includes("ann@") && /digest (one|two)/.test(m.text ?? ""))).toHaveLength(1);
    expect([first.id, second.id]).toHaveLength(2);
  }, 60_000);

  it("refuses an expired key in words", async () => {
    const { task, question } = await ask("cid", { content: "Archive the logs?", options: ["Yes", "No"] });
    const mail = await mailTo("cid", "Archive the logs?");
    await server.stop();
    await store.sql("UPDATE answer_keys SET expires_at = now() - interval '1 minute' WHERE question_id = $1", [question.id]);
    server = await engineServer(store, env(), "email-2");
    await imap.deliver(MAILBOX, reply(mail, "cid@example.com", "1"));
    const told = await mailTo("cid", "This answer link has expired");
    expect(told.text).toContain("Nothing was changed on the board.");
    expect(await questionOf(task.id)).toMatchObject({ status: "open" });
  }, 120_000);
});

/** Until the reader has read (flagged \\Seen) every message in the mailbox. */
function allRead() {
  return eventually(
    async () => ([...(await imap.flags(MAILBOX)).values()].every((flags) => flags.includes("\\Seen")) ? true : undefined),
    20_000,
    "every reply read",
  );
}

async function login(name: string): Promise<string> {
  const response = await server.call("POST", "/api/auth/login", { json: { username: people[name].username, password: "password123" } });
  return response.body.access_token;
}
