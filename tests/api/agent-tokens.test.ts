import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newWorkspace } from "../helpers/api";
import { eventually, fixtureAgentWorkspace, newTask, outputLines } from "../helpers/engine";
import { agentTokenRefusals, type RefusalFixtures } from "../helpers/agent-token-refusals";

// The token a run hands its agent (TASKBOARD_API_TOKEN), taken from a live run of the fixture
// agent, against everything it must not do. The run is started by the admin, who owns both
// workspaces: what the token may do comes from the token, not from its user's rights. On the
// shared server, in a workspace whose default agent is the fixture.

let server: Awaited<ReturnType<typeof fixtureAgentWorkspace>>["server"];
let admin: string;
let wsId: string;
let otherWsId: string;
let agent: string;
let executionId: string;

beforeAll(async () => {
  ({ server, token: admin, wsId } = await fixtureAgentWorkspace());
  otherWsId = (await newWorkspace(admin)).id;
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

  it("changes a task's other fields, moves it and asks questions, but leaves branch and pr_url to people", async () => {
    const task = await as("POST", `/api/workspaces/${wsId}/tasks`, { title: "agent's task", status: "todo" });
    expect(task.status).toBe(201);
    const changed = await as("PATCH", `/api/workspaces/${wsId}/tasks/${task.body.id}`, { title: "renamed", priority: "p1", tags: ["x"] });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ title: "renamed", priority: "p1", tags: ["x"], branch: null, pr_url: null });
    expect((await as("POST", `/api/workspaces/${wsId}/tasks/${task.body.id}/move`, { column: "in_progress" })).status).toBe(200);
    const byPerson = await server.call("PATCH", `/api/workspaces/${wsId}/tasks/${task.body.id}`, {
      token: admin,
      json: { branch: "feature/person", pr_url: "https://github.com/o/r/pull/1" },
    });
    expect(byPerson.body).toMatchObject({ branch: "feature/person", pr_url: "https://github.com/o/r/pull/1" });
  });
});

// One test per operation an agent token may not do (docs/agents.md lists them; the list is
// tests/helpers/agent-token-refusals.ts). Each leaves nothing changed.
describe("an agent token is refused with 403, in words", () => {
  let fixtures: RefusalFixtures;

  beforeAll(async () => {
    const ws = (path: string) => `/api/workspaces/${wsId}${path}`;
    const made = async (method: string, path: string, json: unknown) => {
      const response = await server.call(method, path, { token: admin, json });
      if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(response.body)}`);
      return response.body.id as string;
    };
    const taskId = await made("POST", ws("/tasks"), { title: "a person's task", status: "todo" });
    fixtures = {
      keyId: await made("POST", "/api/auth/api-keys", { name: "admin's key" }),
      userId: await made("POST", "/api/users", { username: "bystander", password: "bystander-pass" }),
      agentId: await made("POST", ws("/agents"), { name: "true", kind: "command", command: "true" }),
      scheduleId: await made("POST", ws("/schedules"), { name: "nightly", cron: "0 3 * * *", task_id: taskId }),
      questionId: await made("POST", ws("/questions"), { task_id: taskId, content: "ship it?" }),
      taskId,
    };
  });

  const adminGet = async (path: string) => (await server.call("GET", path, { token: admin })).body;
  const task = () => adminGet(`/api/workspaces/${wsId}/tasks/${fixtures.taskId}`);
  const refused = agentTokenRefusals({ wsId: () => wsId, fixtures: () => fixtures, adminGet });

  it.each(refused.map((refusal) => [refusal.name, refusal] as const))("%s", async (_name, refusal) => {
    const response = await as(refusal.method, refusal.path(), refusal.json?.());
    expect(response.status).toBe(403);
    expect(response.body.detail).toMatch(/^An agent token may not /);
    await refusal.unchanged?.();
  });

  it.each([
    ["create_task with a pr_url", "create_task", { title: "via MCP", pr_url: "https://github.com/someone/else/pull/7" }, "set pr_url"],
    ["update_task with a branch", "update_task", { branch: "release/x" }, "set branch"],
  ] as const)("MCP %s", async (_name, tool, args, words) => {
    const client = new Client({ name: "agent-tokens-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${agent}` } },
      }),
    );
    try {
      const result = (await client.callTool({ name: tool, arguments: { ...args, task_id: fixtures.taskId } })) as {
        isError?: boolean;
        content: { text: string }[];
      };
      expect(result.isError).toBe(true);
      expect(result.content[0].text).toMatch(new RegExp(`^An agent token may not ${words}`));
      expect(await task()).toMatchObject({ branch: null, pr_url: null });
    } finally {
      await client.close();
    }
  });
});

describe("an agent token, elsewhere", () => {
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
    // (tests/api/mcp-tools.test.ts checks that).
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
        // The runner protocol knows runner tokens only: any other credential is none there (401).
        const refused = template.startsWith("/api/runner/") ? 401 : 403;
        expect(`${name} ${response.status}`).toBe(`${name} ${refused}`);
      }
    }
    expect(checked.length).toBeGreaterThan(40);
  });
});
