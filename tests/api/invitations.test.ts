import { describe, expect, it } from "vitest";
import { baseUrl, call, newUser, newWorkspace, uniqueName, userWithWorkspace } from "../helpers/api";

// Invitations (docs/api.md, "Invitations"): an owner makes a single-use link with a role; a new
// person makes an account with it, or a signed-in user accepts it; used and revoked links answer
// 410 in words. Expiry, mail and agent tokens: tests/api/invitation-mail.test.ts (a server of its own).

const made = userWithWorkspace();
const invitations = () => `/api/workspaces/${made.ws}/invitations`;
const invite = (json: unknown = { role: "member" }, token = made.token) => call("POST", invitations(), { token, json });
const tokenOf = (url: string) => decodeURIComponent(new URL(url).pathname.split("/").pop()!);

describe("POST /api/workspaces/{id}/invitations", () => {
  it("answers 201 with the link, its role, email and expiry (7 days by default); the list shows it without the link", async () => {
    const created = await invite({ role: "viewer", email: "new.person@example.com" });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(["created_at", "email", "expires_at", "id", "role", "url", "workspace_id"]);
    expect(created.body).toMatchObject({ role: "viewer", email: "new.person@example.com", workspace_id: made.ws });
    expect(created.body.url).toMatch(new RegExp(`^${baseUrl()}/invite/tbi_[A-Za-z0-9_-]{43}$`));
    const days = (Date.parse(created.body.expires_at) - Date.parse(created.body.created_at)) / 86_400_000;
    expect(days).toBeCloseTo(7, 3);

    const listed = await call("GET", invitations(), { token: made.token });
    expect(listed.status).toBe(200);
    const mine = listed.body.find((i: { id: string }) => i.id === created.body.id);
    expect(mine).toEqual(Object.fromEntries(Object.entries(created.body).filter(([key]) => key !== "url")));
    expect(JSON.stringify(listed.body)).not.toContain(tokenOf(created.body.url));
  });

  it("defaults to the member role and no email, and refuses a bad role or email in words (422)", async () => {
    const plain = await invite({});
    expect(plain.status).toBe(201);
    expect(plain.body).toMatchObject({ role: "member", email: null });
    const badRole = await invite({ role: "admin" });
    expect(badRole.status).toBe(422);
    expect(badRole.body.detail[0].loc).toEqual(["body", "role"]);
    const badEmail = await invite({ email: "not an address" });
    expect(badEmail.status).toBe(422);
    expect(badEmail.body.detail[0].loc).toEqual(["body", "email"]);
  });

  it("is for owners only: a member gets 403, a stranger 404, nobody 401", async () => {
    const member = await newUser();
    await call("POST", `/api/workspaces/${made.ws}/members`, { token: made.token, json: { username: member.username } });
    const byMember = await invite({ role: "member" }, member.token);
    expect(byMember.status).toBe(403);
    expect(byMember.body.detail).toBe("Only workspace owners may do this");
    expect((await call("GET", invitations(), { token: member.token })).status).toBe(403);
    expect((await invite({ role: "member" }, (await newUser()).token)).status).toBe(404);
    expect((await call("POST", invitations(), { json: { role: "member" } })).status).toBe(401);
  });
});

describe("accepting an invitation", () => {
  it("makes a new account that joins with the role, and the link is then spent (410 in words)", async () => {
    const created = await invite({ role: "member" });
    const token = tokenOf(created.body.url);
    const preview = await call("GET", `/api/invitations/${token}`);
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ role: "member", email: null });
    expect(typeof preview.body.workspace_name).toBe("string");

    const username = uniqueName("joiner");
    const accepted = await call("POST", `/api/invitations/${token}/accept`, {
      json: { username, password: "a-good-password", display_name: "Joan Joiner" },
    });
    expect(accepted.status).toBe(201);
    expect(accepted.body).toMatchObject({ workspace_id: made.ws, role: "member", username });

    const login = await call("POST", "/api/auth/login", { json: { username, password: "a-good-password" } });
    expect(login.status).toBe(200);
    const board = await call("GET", `/api/workspaces/${made.ws}/board`, { token: login.body.access_token });
    expect(board.status).toBe(200);
    const members = await call("GET", `/api/workspaces/${made.ws}/members`, { token: made.token });
    expect(members.body).toContainEqual(expect.objectContaining({ username, display_name: "Joan Joiner", role: "member" }));

    const again = await call("POST", `/api/invitations/${token}/accept`, {
      json: { username: uniqueName(), password: "another-password" },
    });
    expect(again.status).toBe(410);
    expect(again.body.detail).toMatch(/already used/);
    expect((await call("GET", `/api/invitations/${token}`)).status).toBe(410);
    const open = await call("GET", invitations(), { token: made.token });
    expect(open.body.map((i: { id: string }) => i.id)).not.toContain(created.body.id);
  });

  it("lets a signed-in user join as themself; twice in a row, the second sees 409 and the link stays open", async () => {
    const someone = await newUser();
    const first = tokenOf((await invite({ role: "viewer" })).body.url);
    const second = await invite({ role: "owner" });
    const joined = await call("POST", `/api/invitations/${first}/accept`, { token: someone.token });
    expect(joined.status).toBe(201);
    expect(joined.body).toMatchObject({ user_id: someone.id, role: "viewer" });
    const workspace = await call("GET", `/api/workspaces/${made.ws}`, { token: someone.token });
    expect(workspace.body.role).toBe("viewer");

    const already = await call("POST", `/api/invitations/${tokenOf(second.body.url)}/accept`, { token: someone.token });
    expect(already.status).toBe(409);
    expect(already.body.detail).toMatch(/already a member/);
    const open = await call("GET", invitations(), { token: made.token });
    expect(open.body.map((i: { id: string }) => i.id)).toContain(second.body.id);
  });

  it("lets exactly one of two people accepting at once join; the other gets 410 and no account", async () => {
    const token = tokenOf((await invite({ role: "member" })).body.url);
    const names = [uniqueName("racer"), uniqueName("racer")];
    const answers = await Promise.all(
      names.map((username) => call("POST", `/api/invitations/${token}/accept`, { json: { username, password: "racing-password" } })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 410]);
    const loser = names[answers.findIndex((answer) => answer.status === 410)];
    expect((await call("POST", "/api/auth/login", { json: { username: loser, password: "racing-password" } })).status).toBe(401);
  });

  it("answers without credential nor account fields 401, half an account 422, a taken username 409, a made-up link 404", async () => {
    const token = tokenOf((await invite()).body.url);
    const nobody = await call("POST", `/api/invitations/${token}/accept`, { json: {} });
    expect(nobody.status).toBe(401);
    expect(nobody.body.detail).toMatch(/sign in to join as yourself, or send username and password/);
    const half = await call("POST", `/api/invitations/${token}/accept`, { json: { username: uniqueName() } });
    expect(half.status).toBe(422);
    expect(half.body.detail[0].loc).toEqual(["body", "password"]);
    const taken = await call("POST", `/api/invitations/${token}/accept`, {
      json: { username: made.owner.username, password: "whatever-pass" },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.detail).toMatch(/username is taken/);
    const madeUp = await call("POST", `/api/invitations/tbi_${"x".repeat(43)}/accept`, {
      json: { username: uniqueName(), password: "pass-word-1" },
    });
    expect(madeUp.status).toBe(404);
    expect(madeUp.body.detail).toMatch(/not valid/);
    expect((await call("GET", `/api/invitations/${token}`)).status).toBe(200); // none of them spent it
  });
});

describe("DELETE /api/workspaces/{id}/invitations/{invitation_id}", () => {
  it("revokes: the link then answers 410 in words, and a second revoke 404", async () => {
    const created = await invite();
    const revoked = await call("DELETE", `${invitations()}/${created.body.id}`, { token: made.token });
    expect(revoked.status).toBe(204);
    const opened = await call("POST", `/api/invitations/${tokenOf(created.body.url)}/accept`, {
      json: { username: uniqueName(), password: "a-good-password" },
    });
    expect(opened.status).toBe(410);
    expect(opened.body.detail).toMatch(/revoked/);
    expect((await call("DELETE", `${invitations()}/${created.body.id}`, { token: made.token })).status).toBe(404);
  });

  it("finds no invitation of another workspace (404), and lets a member revoke nothing (403)", async () => {
    const other = await newUser();
    const theirs = await newWorkspace(other.token);
    const created = await invite();
    const foreign = await call("DELETE", `/api/workspaces/${theirs.id}/invitations/${created.body.id}`, { token: other.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body.detail).toBe("Open invitation not found");
    const member = await newUser();
    await call("POST", `/api/workspaces/${made.ws}/members`, { token: made.token, json: { username: member.username } });
    expect((await call("DELETE", `${invitations()}/${created.body.id}`, { token: member.token })).status).toBe(403);
    expect((await call("GET", `/api/invitations/${tokenOf(created.body.url)}`)).status).toBe(200);
  });
});
