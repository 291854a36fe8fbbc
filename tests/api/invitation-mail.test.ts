import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineServer, eventually, newStore, workspaceOn, type EngineServer, type Store } from "../helpers/engine";
import { startSmtpCapture, type SmtpCapture } from "../fixtures/mail-servers";

// A server of its own: SMTP_URL is read at start (a real SMTP server from `smtp-server` receives
// what nodemailer sends), and the expiry and agent-token cases need rows no route makes, written
// while the server is stopped (PGlite has one process per data directory).

const FROM = "Taskboard <board@example.com>";
let store: Store;
let server: EngineServer;
let smtp: SmtpCapture;
let token: string;
let wsId: string;
const mails = () => smtp.mails;

const env = () => ({ SMTP_URL: smtp.url, MAIL_FROM: FROM, RUNNER_EMBEDDED: "false" });

beforeAll(async () => {
  store = await newStore("invitation-mail");
  smtp = await startSmtpCapture();
  server = await engineServer(store, env(), "invitation-mail");
  ({ token, wsId } = await workspaceOn(server));
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await smtp?.close(); // closed already by the "mail server is down" case, which is harmless
  await store?.drop();
});

const invite = (json: unknown, bearer = token) => server.call("POST", `/api/workspaces/${wsId}/invitations`, { token: bearer, json });
const tokenOf = (url: string) => decodeURIComponent(new URL(url).pathname.split("/").pop()!);

describe("an invitation with an email, SMTP configured", () => {
  it("is mailed with its link, from MAIL_FROM, after the answer; the mailed link joins", async () => {
    const created = await invite({ email: "ana@example.com", role: "member" });
    expect(created.status).toBe(201);
    const mail = await eventually(async () => mails().find((m) => m.text?.includes(created.body.url)), 15_000, "the invitation mail");
    expect(mail.from?.value).toEqual([{ name: "Taskboard", address: "board@example.com" }]);
    expect((mail.to as { text: string }).text).toBe("ana@example.com");
    expect(mail.subject).toMatch(/^admin invited you to ws-\d+ on the task board$/);
    expect(mail.text).toContain("as member");

    const link = /https?:\/\/\S+\/invite\/\S+/.exec(mail.text!)![0];
    const joined = await server.call("POST", `/api/invitations/${tokenOf(link)}/accept`, {
      json: { username: "ana", password: "ana-password-1" },
    });
    expect(joined.status).toBe(201);
  });

  it("sends nothing without an email", async () => {
    const before = mails().length;
    const created = await invite({ role: "viewer" });
    const marker = await invite({ email: "marker@example.com" });
    await eventually(async () => mails().find((m) => m.text?.includes(marker.body.url)), 15_000, "the marker mail");
    expect(
      mails()
        .slice(before)
        .map((m) => (m.to as { text: string }).text),
    ).toEqual(["marker@example.com"]);
    expect(mails().some((m) => m.text?.includes(created.body.url))).toBe(false);
  });

  it("is still made (201) when the mail server is down: the mail's failure never fails the request", async () => {
    await smtp.close();
    const created = await invite({ email: "nobody@example.com", role: "member" });
    expect(created.status).toBe(201);
    expect((await server.call("GET", `/api/invitations/${tokenOf(created.body.url)}`)).status).toBe(200);
  });
});

describe("after a restart with rows written directly", () => {
  it("an expired link answers 410 in words; agent tokens may not invite or accept; a viewer's agent token writes nothing", async () => {
    const expiring = await invite({ role: "member" });
    const open = await invite({ role: "member" });
    const viewer = await server.call("POST", "/api/users", { token, json: { username: "vic", password: "vic-password-1" } });
    await server.call("POST", `/api/workspaces/${wsId}/members`, { token, json: { username: "vic", role: "viewer" } });
    const admin = (await server.call("GET", "/api/auth/me", { token })).body.id as string;

    await server.stop();
    const adminAgent = `tbg_${crypto.randomBytes(32).toString("base64url")}`;
    const viewerAgent = `tbg_${crypto.randomBytes(32).toString("base64url")}`;
    const hash = (secret: string) => crypto.createHash("sha256").update(secret).digest("hex");
    await store.sql("UPDATE invitations SET expires_at = now() - interval '1 day' WHERE id = $1", [expiring.body.id]);
    for (const [userId, secret] of [
      [admin, adminAgent],
      [viewer.body.id, viewerAgent],
    ]) {
      await store.sql("INSERT INTO auth_tokens (id, kind, user_id, token_hash, workspace_id) VALUES ($1, 'agent', $2, $3, $4)", [
        crypto.randomUUID(),
        userId,
        hash(secret),
        wsId,
      ]);
    }
    server = await engineServer(store, env(), "invitation-mail-2");

    const expired = await server.call("GET", `/api/invitations/${tokenOf(expiring.body.url)}`);
    expect(expired.status).toBe(410);
    expect(expired.body.detail).toMatch(/^This invitation expired on \d{4}-\d{2}-\d{2}\. Ask a workspace owner for a new one$/);

    const byAgent = await invite({ role: "owner" }, adminAgent);
    expect(byAgent.status).toBe(403);
    expect(byAgent.body.detail).toMatch(/^An agent token may not invite people/);
    expect((await server.call("GET", `/api/workspaces/${wsId}/invitations`, { token: adminAgent })).status).toBe(403);
    const accepted = await server.call("POST", `/api/invitations/${tokenOf(open.body.url)}/accept`, { token: adminAgent });
    expect(accepted.status).toBe(403);
    expect(accepted.body.detail).toMatch(/^An agent token may not accept invitations/);

    const viewerWrite = await server.call("POST", `/api/workspaces/${wsId}/tasks`, { token: viewerAgent, json: { title: "no" } });
    expect(viewerWrite.status).toBe(403);
    expect(viewerWrite.body.detail).toMatch(/^Viewers can read this workspace but not change it/);
    expect((await server.call("GET", `/api/workspaces/${wsId}/board`, { token: viewerAgent })).status).toBe(200);
  }, 120_000);
});
