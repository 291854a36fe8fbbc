import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin, baseUrl, call, client, newUser, newWorkspace } from "../helpers/api";
import { finished } from "../helpers/engine";
import { createTask } from "../helpers/tasks";

// Agent profiles and the workspace repository, over HTTP. A profile is a command the server runs, so
// only administrators write one; the repository is checked with git against a real (bare) remote.

let owner: Awaited<ReturnType<typeof newUser>>;
let member: Awaited<ReturnType<typeof newUser>>;
let adminToken: string;
let ws: { id: string };
const roots: string[] = [];

beforeAll(async () => {
  adminToken = await admin();
  owner = await newUser();
  member = await newUser();
  ws = await newWorkspace(owner.token);
  // The administrator works in the workspace too (profiles are per workspace).
  for (const user of [member]) {
    const added = await call("POST", `/api/workspaces/${ws.id}/members`, {
      token: owner.token,
      json: { username: user.username, role: "member" },
    });
    expect(added.status).toBe(201);
  }
  const me = await call("GET", "/api/auth/me", { token: adminToken });
  const added = await call("POST", `/api/workspaces/${ws.id}/members`, {
    token: owner.token,
    json: { username: me.body.username, role: "member" },
  });
  expect(added.status).toBe(201);
});

afterAll(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

const agents = () => `/api/workspaces/${ws.id}/agents`;
const claude = {
  name: "Claude Code",
  kind: "acp",
  command: "npx",
  args: ["@zed-industries/claude-agent-acp"],
  env_passthrough: ["ANTHROPIC_API_KEY"],
};

describe("agent profiles", () => {
  it("lists the presets, each ready to become a profile", async () => {
    const res = await call("GET", `${agents()}/presets`, { token: member.token });
    expect(res.status).toBe(200);
    expect(res.body.map((p: { preset: string }) => p.preset)).toEqual(["claude-code", "codex", "gemini", "opencode", "demo"]);
    const gemini = res.body.find((p: { preset: string }) => p.preset === "gemini");
    // The shipped agents start from the server's installation; the others say how to install them.
    expect(gemini).toMatchObject({ kind: "acp", command: "gemini", args: ["--acp"], installed: true, install: null });
    for (const shipped of ["claude-code", "codex"]) {
      expect(res.body.find((p: { preset: string }) => p.preset === shipped)).toMatchObject({ installed: true, install: null });
    }
    expect(res.body.find((p: { preset: string }) => p.preset === "opencode")).toMatchObject({ install: "npm install -g opencode-ai" });
    const demo = res.body.find((p: { preset: string }) => p.preset === "demo");
    expect(path.isAbsolute(demo.args[0])).toBe(true);
  });

  it("lets administrators create, change and delete profiles, with one default at a time", async () => {
    const first = await call("POST", agents(), { token: adminToken, json: { ...claude, is_default: true } });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ ...claude, workspace_id: ws.id, is_default: true });
    const second = await call("POST", agents(), {
      token: adminToken,
      json: { name: "Demo", kind: "command", command: "node", args: ["demo.mjs"], is_default: true },
    });
    expect(second.status).toBe(201);
    let list = await call("GET", agents(), { token: member.token });
    expect(list.body.map((a: { name: string; is_default: boolean }) => [a.name, a.is_default])).toEqual([
      ["Claude Code", false],
      ["Demo", true],
    ]);

    // An owner may choose the default, and nothing else.
    const chosen = await call("PATCH", `${agents()}/${first.body.id}`, { token: owner.token, json: { is_default: true } });
    expect(chosen.status).toBe(200);
    list = await call("GET", agents(), { token: member.token });
    expect(list.body.filter((a: { is_default: boolean }) => a.is_default).map((a: { id: string }) => a.id)).toEqual([first.body.id]);
    const renamed = await call("PATCH", `${agents()}/${first.body.id}`, {
      token: owner.token,
      json: { command: "sh", args: ["-c", "cat /etc/passwd"] },
    });
    expect(renamed.status).toBe(403);

    const changed = await call("PATCH", `${agents()}/${second.body.id}`, { token: adminToken, json: { args: ["other.mjs"] } });
    expect(changed.status).toBe(200);
    expect(changed.body.args).toEqual(["other.mjs"]);
    expect((await call("DELETE", `${agents()}/${second.body.id}`, { token: adminToken })).status).toBe(204);
    expect((await call("GET", `${agents()}/${second.body.id}`, { token: member.token })).status).toBe(404);
  });

  it("keeps each profile's network: an allowlist by default, the presets' vendor hosts, `full` when an administrator sets it", async () => {
    // A client that knows nothing of the sandbox gets the defaults.
    const plain = await call("POST", agents(), { token: adminToken, json: { ...claude, name: "no network fields" } });
    expect(plain.status).toBe(201);
    expect(plain.body).toMatchObject({ network_allow: [], network: "allowlist" });
    const presets = await call("GET", `${agents()}/presets`, { token: member.token });
    const hosts = Object.fromEntries(presets.body.map((p: { preset: string; network_allow: string[] }) => [p.preset, p.network_allow]));
    expect(hosts).toMatchObject({
      "claude-code": ["api.anthropic.com"],
      codex: ["api.openai.com"],
      gemini: ["generativelanguage.googleapis.com"],
    });

    const listed = await call("PATCH", `${agents()}/${plain.body.id}`, {
      token: adminToken,
      json: { network_allow: ["api.anthropic.com", "10.0.0.5:8080", "*.example.com"] },
    });
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ network_allow: ["api.anthropic.com", "10.0.0.5:8080", "*.example.com"], network: "allowlist" });
    const full = await call("PATCH", `${agents()}/${plain.body.id}`, { token: adminToken, json: { network: "full" } });
    expect(full.body).toMatchObject({ network: "full", network_allow: ["api.anthropic.com", "10.0.0.5:8080", "*.example.com"] });
    // Only administrators write profiles: an owner may not open the network.
    expect((await call("PATCH", `${agents()}/${plain.body.id}`, { token: owner.token, json: { network: "full" } })).status).toBe(403);

    for (const [field, value] of [
      ["network_allow", ["https://api.openai.com"]],
      ["network_allow", ["host:99999"]],
      ["network", "everything"],
    ] as const) {
      const bad = await call("PATCH", `${agents()}/${plain.body.id}`, { token: adminToken, json: { [field]: value } });
      expect(bad.status, `${field} ${JSON.stringify(value)}`).toBe(422);
      expect(bad.body.detail[0].loc[1]).toBe(field);
    }
    expect((await call("DELETE", `${agents()}/${plain.body.id}`, { token: adminToken })).status).toBe(204);
  });

  it("refuses members, owners and bad profiles", async () => {
    expect((await call("POST", agents(), { token: member.token, json: { ...claude, name: "x" } })).status).toBe(403);
    expect((await call("POST", agents(), { token: owner.token, json: { ...claude, name: "y" } })).status).toBe(403);
    const secret = await call("POST", agents(), { token: adminToken, json: { ...claude, name: "z", env_passthrough: ["DATABASE_URL"] } });
    expect(secret.status).toBe(422);
    expect(secret.body.detail[0].loc).toEqual(["body", "env_passthrough", 0]);
    // Every name the server's own secret pattern matches (the one that keeps them from AGENT_COMMAND), not a short list.
    for (const name of [
      "AWS_SECRET_ACCESS_KEY",
      "GITHUB_TOKEN",
      "gh_token",
      "MY_DB_PASSWORD",
      "DEPLOY_PRIVATE_KEY",
      "SSH_AUTH_SOCK",
      "ADMIN_USERNAME",
    ]) {
      const refused = await call("POST", agents(), {
        token: adminToken,
        json: { ...claude, name: `p-${name}`, env_passthrough: ["PATH", name] },
      });
      expect(refused.status, name).toBe(422);
      expect(refused.body.detail[0].loc, name).toEqual(["body", "env_passthrough", 1]);
      expect(refused.body.detail[0].msg, name).toMatch(/This variable is the server's own and is never passed to an agent/);
    }
    const kind = await call("POST", agents(), { token: adminToken, json: { ...claude, name: "k", kind: "shell" } });
    expect(kind.status).toBe(422);
    const duplicate = await call("POST", agents(), { token: adminToken, json: claude });
    expect(duplicate.status).toBe(409);
    const outsider = await newUser();
    expect((await call("GET", agents(), { token: outsider.token })).status).toBe(404);
  });
});

describe("the fallback agent (no profile in the workspace)", () => {
  it("is named a demo, and refuses in words to fix conflicts: the run fails and the conflict stays", async () => {
    const fresh = await newWorkspace(owner.token);
    const fallback = await call("GET", `/api/workspaces/${fresh.id}/agents/fallback`, { token: member.token });
    expect(fallback.status).toBe(404); // not a member of that workspace
    const own = await call("GET", `/api/workspaces/${fresh.id}/agents/fallback`, { token: owner.token });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ name: "Demo agent", demo: true });
    expect(own.body.description).toContain("changes nothing");

    const task = await createTask(owner.token, fresh.id, {
      title: "Conflicted",
      status: "in_review",
      pr_url: "https://github.com/acme/app/pull/9",
    });
    const marked = await call("PATCH", `/api/workspaces/${fresh.id}/tasks/${task.id}`, {
      token: owner.token,
      json: { has_merge_conflict: true },
    });
    expect(marked.status).toBe(200);
    const started = await call("POST", `/api/workspaces/${fresh.id}/tasks/${task.id}/fix-conflicts`, { token: owner.token });
    expect(started.status).toBe(202);
    const ended = await finished(client(baseUrl()), owner.token, fresh.id, started.body.id);
    expect(ended).toMatchObject({ status: "failed" });
    expect(ended.error_message).toContain("The demo agent cannot fix merge conflicts");
    const after = await call("GET", `/api/workspaces/${fresh.id}/tasks/${task.id}`, { token: owner.token });
    expect(after.body).toMatchObject({ has_merge_conflict: true, status: "in_review" });
  });
});

describe("the workspace repository", () => {
  // An administrator's own workspace: local paths need an administrator who is also an owner.
  let adminWs: { id: string };
  const repo = (id = adminWs.id) => `/api/workspaces/${id}/repository`;
  beforeAll(async () => {
    adminWs = await newWorkspace(adminToken);
    const added = await call("POST", `/api/workspaces/${adminWs.id}/members`, {
      token: adminToken,
      json: { username: member.username, role: "member" },
    });
    expect(added.status).toBe(201);
  });

  it("connects a remote after git has read it, and disconnects", async () => {
    const remote = bareRemote("main");
    expect((await call("GET", repo(), { token: member.token })).status).toBe(404);
    // A path on the server's disk is for administrators only; the repository is for owners.
    expect((await call("PUT", repo(ws.id), { token: owner.token, json: { url: remote } })).status).toBe(403);
    expect((await call("PUT", repo(ws.id), { token: adminToken, json: { url: remote } })).status).toBe(403);
    expect((await call("PUT", repo(), { token: member.token, json: { url: remote } })).status).toBe(403);
    const connected = await call("PUT", repo(), { token: adminToken, json: { url: remote } });
    expect(connected.status).toBe(200);
    expect(connected.body).toMatchObject({ workspace_id: adminWs.id, url: remote, default_branch: "main" });
    expect((await call("GET", repo(), { token: member.token })).body.url).toBe(remote);
    expect((await call("DELETE", repo(), { token: member.token })).status).toBe(403);
    expect((await call("DELETE", repo(), { token: adminToken })).status).toBe(204);
    expect((await call("GET", repo(), { token: member.token })).status).toBe(404);
  });

  it("answers a wrong URL or branch in words, and refuses program-running transports", async () => {
    const remote = bareRemote("trunk");
    const missing = await call("PUT", repo(), { token: adminToken, json: { url: remote + "-nope" } });
    expect(missing.status).toBe(422);
    expect(missing.body.detail[0]).toMatchObject({ loc: ["body", "url"] });
    expect(missing.body.detail[0].msg).toBe("could not read the repository: not found");
    const branch = await call("PUT", repo(), { token: adminToken, json: { url: remote } });
    expect(branch.status).toBe(422);
    expect(branch.body.detail[0]).toMatchObject({ loc: ["body", "default_branch"], msg: "The repository has no branch main" });
    const trunk = await call("PUT", repo(), { token: adminToken, json: { url: remote, default_branch: "trunk" } });
    expect(trunk.status).toBe(200);
    for (const url of ["ext::sh -c touch% /tmp/pwned", "fd::17", "relative/path", "-uoption"]) {
      const res = await call("PUT", repo(), { token: adminToken, json: { url } });
      expect(res.status, url).toBe(422);
    }
  });
});

function bareRemote(branch: string): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "repo-api-")));
  roots.push(root);
  const seed = path.join(root, "seed");
  const remote = path.join(root, "remote.git");
  execFileSync("git", ["init", "-q", "-b", branch, seed]);
  fs.writeFileSync(path.join(seed, "README.md"), "hello\n");
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "seed"], { cwd: seed });
  execFileSync("git", ["clone", "-q", "--bare", seed, remote]);
  return remote;
}
