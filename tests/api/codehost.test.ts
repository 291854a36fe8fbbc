import { beforeAll, describe, expect, it } from "vitest";
import { call, newUser, newWorkspace, onlyError } from "../helpers/api";

// The provider is GitHub; /codehost and /github are two spellings of one implementation. This
// server has no GitHub App (Connect GitHub is tested against the fake GitHub in
// github-webhooks.test.ts): here, who may name an installation, and who may see its id.
const SPELLINGS = ["codehost", "github"] as const;
const appConfigured = Boolean(process.env.GITHUB_APP_ID && process.env.GITHUB_APP_PRIVATE_KEY);
const oauthConfigured = appConfigured && Boolean(process.env.GITHUB_CLIENT_ID && process.env.GITHUB_CLIENT_SECRET);
const DISCONNECTED = {
  connected: false,
  installation_id: null,
  repo: null,
  app_configured: appConfigured,
  oauth_configured: oauthConfigured,
};

let owner: Awaited<ReturnType<typeof newUser>>;
let adminOwner: Awaited<ReturnType<typeof newUser>>;
let member: Awaited<ReturnType<typeof newUser>>;
let ws: { id: string };

beforeAll(async () => {
  owner = await newUser();
  adminOwner = await newUser({ isAdmin: true });
  member = await newUser();
  ws = await newWorkspace(owner.token);
  for (const [user, role] of [
    [member, "member"],
    [adminOwner, "owner"],
  ] as const) {
    const added = await call("POST", `/api/workspaces/${ws.id}/members`, { token: owner.token, json: { username: user.username, role } });
    expect(added.status).toBe(201);
  }
});

describe.each(SPELLINGS)("/api/workspaces/{id}/%s", (segment) => {
  const url = () => `/api/workspaces/${ws.id}/${segment}`;

  it("reports not connected, with nulls, by default", async () => {
    const fresh = await newWorkspace(owner.token);
    const res = await call("GET", `/api/workspaces/${fresh.id}/${segment}/status`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(DISCONNECTED);
  });

  it("refuses an owner who is not a server administrator naming an installation (403 in words), and connects nothing", async () => {
    const put = await call("PUT", url(), { token: owner.token, json: { installation_id: 424242, repo: "victim-org/secret" } });
    expect(put.status).toBe(403);
    expect(put.body.detail).toMatch(/^Only a server administrator may name a GitHub App installation directly: use Connect GitHub/);
    const after = await call("GET", `${url()}/status`, { token: owner.token });
    expect(after.body).toEqual(DISCONNECTED);
  });

  it("without an installation recorded by Connect GitHub, a repository alone is 409 in words", async () => {
    const put = await call("PUT", url(), { token: owner.token, json: { repo: "acme/widgets" } });
    expect(put.status).toBe(409);
    expect(put.body.detail).toBe("No GitHub installation is recorded for this workspace: connect GitHub first");
  });

  it("an administrator who owns the workspace connects; owners see the installation id, members do not (agent tokens act as members)", async () => {
    const put = await call("PUT", url(), { token: adminOwner.token, json: { installation_id: 4242, repo: "acme/widgets" } });
    expect(put.status).toBe(200);
    const connected = { ...DISCONNECTED, connected: true, installation_id: 4242, repo: "acme/widgets" };
    expect(put.body).toEqual(connected);
    for (const other of SPELLINGS) {
      expect((await call("GET", `/api/workspaces/${ws.id}/${other}/status`, { token: owner.token })).body).toEqual(connected);
      const seen = await call("GET", `/api/workspaces/${ws.id}/${other}/status`, { token: member.token });
      expect(seen.status).toBe(200);
      expect(seen.body).toEqual({ ...connected, installation_id: null });
    }
    // The installation is now recorded: an owner may pick another repository of it, not another installation.
    const other = await call("PUT", url(), { token: owner.token, json: { installation_id: 4243, repo: "acme/widgets" } });
    expect(other.status).toBe(403);
    const del = await call("DELETE", url(), { token: owner.token });
    expect(del.status).toBe(204);
    const after = await call("GET", `${url()}/status`, { token: owner.token });
    expect(after.body).toEqual(DISCONNECTED);
  });

  it("403 for a member who is not an owner", async () => {
    const put = await call("PUT", url(), { token: member.token, json: { installation_id: 1, repo: "a/b" } });
    expect(put.status).toBe(403);
    expect(typeof put.body.detail).toBe("string");
    const del = await call("DELETE", url(), { token: member.token });
    expect(del.status).toBe(403);
  });

  it.each([
    [{ installation_id: 1 }, ["body", "repo"], "missing"],
    [{ installation_id: 0, repo: "a/b" }, ["body", "installation_id"], "greater_than_equal"],
    [{ installation_id: "7", repo: "a/b" }, ["body", "installation_id"], "int_type"],
    [{ installation_id: 1.5, repo: "a/b" }, ["body", "installation_id"], "int_from_float"],
    [{ installation_id: 1, repo: "just-a-name" }, ["body", "repo"], "string_pattern_mismatch"],
    [{ installation_id: 1, repo: "a/b/c" }, ["body", "repo"], "string_pattern_mismatch"],
  ])("422 for %j at %j (%s)", async (json, loc, type) => {
    const res = await call("PUT", url(), { token: owner.token, json });
    expect(res.status).toBe(422);
    expect(onlyError(res.body)).toEqual({ loc, type });
  });

  it("a non-member gets 404 on every route", async () => {
    const outsider = await newUser();
    for (const [method, path, json] of [
      ["GET", `${url()}/status`],
      ["PUT", url(), { installation_id: 1, repo: "a/b" }],
      ["DELETE", url()],
    ] as const) {
      const res = await call(method, path, { token: outsider.token, json });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toEqual({ detail: "Workspace not found" });
    }
    expect((await call("GET", `${url()}/status`)).status).toBe(401);
  });
});
