import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  engineServer,
  eventually,
  FIXTURE_AGENT,
  newStore,
  newTask,
  outputLines,
  workspaceOn,
  type EngineServer,
  type Store,
} from "../helpers/engine";

// The token a run hands its agent (TASKBOARD_API_TOKEN), taken from a live run of the fixture
// agent, against everything it must not do. The run is started by the admin, who owns both
// workspaces: what the token may do comes from the token, not from its user's rights.

let store: Store;
let server: EngineServer;
let admin: string;
let wsId: string;
let otherWsId: string;
let agent: string;
let executionId: string;

beforeAll(async () => {
  store = await newStore("agent-tokens");
  server = await engineServer(store, { AGENT_COMMAND: FIXTURE_AGENT, AGENT_TIMEOUT_SECONDS: "300", AGENT_LOG_FLUSH_MS: "100" });
  ({ token: admin, wsId } = await workspaceOn(server));
  ({ wsId: otherWsId } = await workspaceOn(server));
  const task = await newTask(server.call, admin, wsId, { title: "hold" });
  const started = await server.call("POST", `/api/workspaces/${wsId}/tasks/${task.id}/runs`, {
    token: admin,
    json: { instructions: "hold 300" },
  });
  expect(started.status).toBe(202);
  executionId = started.body.id;
  agent = await eventually(async () => {
    const log = await server.call("GET", `/api/workspaces/${wsId}/executions/${executionId}/log`, { token: admin });
    const line = outputLines(log.body).find((l) => l.startsWith("TOKEN="));
    return line?.slice("TOKEN=".length);
  }, 30_000);
  expect(agent).toMatch(/^tbg_/);
});

afterAll(async () => {
  if (executionId) await server?.call("POST", `/api/workspaces/${wsId}/executions/${executionId}/cancel`, { token: admin });
  await server?.stop();
  await store?.drop();
});

const as = (method: string, path: string, json?: unknown) => server.call(method, path, { token: agent, json });

describe("an agent token", () => {
  it("works in its own workspace for what an agent needs", async () => {
    expect((await as("GET", "/api/auth/me")).status).toBe(200);
    expect((await as("GET", `/api/workspaces/${wsId}/board`)).status).toBe(200);
    const task = await as("POST", `/api/workspaces/${wsId}/tasks`, { title: "made by the agent", status: "todo" });
    expect(task.status).toBe(201);
    expect((await as("PATCH", `/api/workspaces/${wsId}/tasks/${task.body.id}`, { description: "done" })).status).toBe(200);
    const question = await as("POST", `/api/workspaces/${wsId}/questions`, { task_id: task.body.id, content: "which way?" });
    expect(question.status).toBe(201);
  });

  it("acts with the member role although its user owns the workspace", async () => {
    const own = await as("GET", `/api/workspaces/${wsId}`);
    expect(own.status).toBe(200);
    expect(own.body.role).toBe("member");
    expect((await server.call("GET", `/api/workspaces/${wsId}`, { token: admin })).body.role).toBe("owner");
  });

  it("is refused with 403 on credential, user, membership and code-host management", async () => {
    const someone = await server.call("POST", "/api/users", { token: admin, json: { username: "bystander", password: "bystander-pass" } });
    expect(someone.status).toBe(201);
    const key = await server.call("POST", "/api/auth/api-keys", { token: admin, json: { name: "admin's key" } });
    expect(key.status).toBe(201);
    const refused: [string, string, unknown?][] = [
      ["GET", "/api/auth/api-keys"],
      ["POST", "/api/auth/api-keys", { name: "stolen" }],
      ["DELETE", `/api/auth/api-keys/${key.body.id}`],
      ["GET", "/api/users"],
      ["POST", "/api/users", { username: "intruder", password: "intruder-pass" }],
      ["PATCH", `/api/users/${someone.body.id}`, { is_admin: true }],
      ["GET", "/api/workspaces"],
      ["POST", "/api/workspaces", { name: "agent's own" }],
      ["GET", `/api/workspaces/${wsId}/members`],
      ["POST", `/api/workspaces/${wsId}/members`, { username: "bystander", role: "owner" }],
      ["DELETE", `/api/workspaces/${wsId}/members/${someone.body.id}`],
      ["PUT", `/api/workspaces/${wsId}/codehost`, { installation_id: 1, repo: "o/r" }],
      ["DELETE", `/api/workspaces/${wsId}/codehost`],
      ["PUT", `/api/workspaces/${wsId}/github`, { installation_id: 1, repo: "o/r" }],
      ["DELETE", `/api/workspaces/${wsId}/github`],
      // An agent profile is a command the server runs; the repository is where agents work.
      ["POST", `/api/workspaces/${wsId}/agents`, { name: "sh", kind: "command", command: "sh" }],
      ["PATCH", `/api/workspaces/${wsId}/agents/0190b8f0-0000-7000-8000-000000000001`, { is_default: true }],
      ["DELETE", `/api/workspaces/${wsId}/agents/0190b8f0-0000-7000-8000-000000000001`],
      ["PUT", `/api/workspaces/${wsId}/repository`, { url: "https://example.invalid/r.git" }],
      ["DELETE", `/api/workspaces/${wsId}/repository`],
      // Webhooks send the workspace's activity to a URL of the owner's choosing.
      ["GET", `/api/workspaces/${wsId}/webhooks`],
      ["POST", `/api/workspaces/${wsId}/webhooks`, { url: "https://example.invalid/hook", events: ["*"] }],
      ["PATCH", `/api/workspaces/${wsId}/webhooks/0190b8f0-0000-7000-8000-000000000001`, { enabled: false }],
      ["GET", `/api/workspaces/${wsId}/webhooks/0190b8f0-0000-7000-8000-000000000001/deliveries`],
    ];
    for (const [method, path, json] of refused) {
      const response = await as(method, path, json);
      expect({ method, path, status: response.status }).toEqual({ method, path, status: 403 });
      expect(typeof response.body.detail).toBe("string");
    }
    // Nothing was made or changed by those attempts.
    const keys = await server.call("GET", "/api/auth/api-keys", { token: admin });
    expect(keys.body.map((k: { name: string }) => k.name)).toEqual(["admin's key"]);
    const members = await server.call("GET", `/api/workspaces/${wsId}/members`, { token: admin });
    expect(members.body).toHaveLength(1);
    const users = await server.call("GET", "/api/users", { token: admin });
    expect(users.body.find((u: { username: string }) => u.username === "bystander").is_admin).toBe(false);
  });

  it("is refused with 403 in another workspace of its user, and for ids that do not exist", async () => {
    for (const id of [otherWsId, "0190b8f0-0000-7000-8000-000000000000"]) {
      expect((await as("GET", `/api/workspaces/${id}`)).status).toBe(403);
      expect((await as("GET", `/api/workspaces/${id}/board`)).status).toBe(403);
      expect((await as("POST", `/api/workspaces/${id}/tasks`, { title: "elsewhere" })).status).toBe(403);
    }
  });

  it("is refused on every documented operation outside its workspace except who-am-I, logout and MCP", async () => {
    // Walks /openapi.json, so a route added later is covered without editing this test.
    const document = (await server.call("GET", "/openapi.json")).body as {
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    };
    // POST /api/mcp lets the token in, and each of its tool calls is then confined like the routes
    // (tests/api/mcp.test.ts checks that).
    const allowed = new Set(["GET /api/auth/me", "POST /api/auth/logout", "POST /api/mcp"]);
    const checked: string[] = [];
    for (const [template, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (Array.isArray(operation.security) && operation.security.length === 0) continue; // public: login, setup, health
        const name = `${method.toUpperCase()} ${template}`;
        if (allowed.has(name)) continue;
        const inWorkspace = template.startsWith("/api/workspaces/{id}");
        const path = template.replace("{id}", inWorkspace ? otherWsId : "x").replace(/\{[^}]+\}/g, "0190b8f0-0000-7000-8000-000000000001");
        const response = await as(method.toUpperCase(), path, method === "get" || method === "delete" ? undefined : {});
        checked.push(`${name} ${response.status}`);
        expect(`${name} ${response.status}`).toBe(`${name} 403`);
      }
    }
    expect(checked.length).toBeGreaterThan(40);
  });
});
