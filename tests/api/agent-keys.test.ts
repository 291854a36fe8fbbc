import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl, call, client, newUser, newWorkspace, onlyError } from "../helpers/api";
import { finished, outputLines } from "../helpers/engine";
import { createTask } from "../helpers/tasks";

// Model keys stored on a profile (docs/agents.md, "Model keys"): owners store them, only the names are
// ever answered, they reach that profile's runs and no other, and a shipped agent without its key
// fails at once in words instead of a protocol error seconds later.

let owner: Awaited<ReturnType<typeof newUser>>;
let member: Awaited<ReturnType<typeof newUser>>;
let ws: { id: string };
const url = (path = "") => `/api/workspaces/${ws.id}${path}`;
const as = (token: string, method: string, path: string, json?: unknown) => call(method, url(path), { token, json });
const SECRET = "sk-stored-value-7f3a";

beforeAll(async () => {
  // Profiles are written by administrators (a profile is a command the server runs): the owner is one.
  owner = await newUser({ isAdmin: true });
  member = await newUser();
  ws = await newWorkspace(owner.token);
  expect((await as(owner.token, "POST", "/members", { username: member.username, role: "member" })).status).toBe(201);
});

const profile = async (json: Record<string, unknown>) => {
  const res = await as(owner.token, "POST", "/agents", json);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; stored_keys: string[]; readiness: { ready: boolean; problems: string[] } };
};

describe("PUT/DELETE …/agents/{agent_id}/keys/{name}", () => {
  it("says a shipped agent lacks its key, stores it for owners only, and never answers the value", async () => {
    // No passed-through variables: the server's own environment does not count for this profile.
    const claude = await profile({ name: "Claude, keyless", kind: "acp", command: "claude-agent-acp", preset: "claude-code" });
    expect(claude.stored_keys).toEqual([]);
    expect(claude.readiness.ready).toBe(false);
    expect(claude.readiness.problems.join(" ")).toContain("needs ANTHROPIC_API_KEY");

    const byMember = await as(member.token, "PUT", `/agents/${claude.id}/keys/ANTHROPIC_API_KEY`, { value: SECRET });
    expect(byMember.status).toBe(403);
    expect(byMember.body.detail).toContain("owners");
    for (const [name, loc] of [
      ["lowercase", ["path", "name"]],
      ["TASKBOARD_API_TOKEN", ["path", "name"]],
      ["PATH", ["path", "name"]],
    ] as const) {
      const bad = await as(owner.token, "PUT", `/agents/${claude.id}/keys/${name}`, { value: SECRET });
      expect(bad.status, name).toBe(422);
      expect(onlyError(bad.body).loc).toEqual(loc);
    }
    expect((await as(owner.token, "PUT", `/agents/${claude.id}/keys/ANTHROPIC_API_KEY`, { value: "" })).status).toBe(422);
    expect((await as(owner.token, "PUT", `/agents/no-such-profile/keys/ANTHROPIC_API_KEY`, { value: SECRET })).status).toBe(404);

    const stored = await as(owner.token, "PUT", `/agents/${claude.id}/keys/ANTHROPIC_API_KEY`, { value: SECRET });
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({ stored_keys: ["ANTHROPIC_API_KEY"], readiness: { ready: true, problems: [] } });
    const listed = await as(member.token, "GET", "/agents");
    expect(JSON.stringify(listed.body)).not.toContain(SECRET);
    expect(JSON.stringify(stored.body)).not.toContain(SECRET);

    const removed = await as(owner.token, "DELETE", `/agents/${claude.id}/keys/ANTHROPIC_API_KEY`);
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ stored_keys: [], readiness: { ready: false } });
  });

  it("a run of a shipped agent without its key fails at once, saying which key and where to set it", async () => {
    const claude = await profile({ name: "Claude, no key", kind: "acp", command: "claude-agent-acp", preset: "claude-code" });
    const task = await createTask(owner.token, ws.id, { title: "Needs a key" });
    const started = await as(owner.token, "POST", `/tasks/${task.id}/runs`, { agent_id: claude.id });
    expect(started.status).toBe(202);
    const ended = await finished(client(baseUrl()), owner.token, ws.id, started.body.id);
    expect(ended.status).toBe("failed");
    expect(ended.error_message).toMatch(/^Claude, no key needs ANTHROPIC_API_KEY: store it in Settings → Agents/);
  });

  it("passes a stored key to that profile's runs only", async () => {
    const script = 'if [ "$MY_MODEL_KEY" = "' + SECRET + '" ]; then echo key-arrived; else echo key-missing; fi';
    const keyed = await profile({ name: "Keyed", kind: "command", command: "sh", args: ["-c", script] });
    const other = await profile({ name: "Unkeyed", kind: "command", command: "sh", args: ["-c", script] });
    expect((await as(owner.token, "PUT", `/agents/${keyed.id}/keys/MY_MODEL_KEY`, { value: SECRET })).status).toBe(200);
    for (const [agent, expected] of [
      [keyed, "key-arrived"],
      [other, "key-missing"],
    ] as const) {
      const task = await createTask(owner.token, ws.id, { title: `Run of ${expected}` });
      const started = await as(owner.token, "POST", `/tasks/${task.id}/runs`, { agent_id: agent.id });
      expect(started.status).toBe(202);
      const ended = await finished(client(baseUrl()), owner.token, ws.id, started.body.id);
      expect(ended.status).toBe("succeeded");
      const log = await as(owner.token, "GET", `/executions/${started.body.id}/log`);
      expect(outputLines(log.body)).toContain(expected);
    }
  });
});
