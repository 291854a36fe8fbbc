import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
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

// One test per operation an agent token may not do (docs/agents.md lists them). Each is sent with
// a body that would succeed for a person where that matters, and each leaves nothing changed.
describe("an agent token is refused with 403, in words", () => {
  const fakeId = "0190b8f0-0000-7000-8000-000000000001";
  let fixtures: {
    keyId: string;
    userId: string;
    agentId: string;
    scheduleId: string;
    questionId: string;
    taskId: string;
  };

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

  type Refusal = { name: string; method: string; path: () => string; json?: () => unknown; unchanged?: () => Promise<void> };
  const ws = (path: string) => () => `/api/workspaces/${wsId}${path}`;
  const adminGet = async (path: string) => (await server.call("GET", path, { token: admin })).body;
  const task = () => adminGet(`/api/workspaces/${wsId}/tasks/${fixtures.taskId}`);
  const schedule = () => adminGet(`/api/workspaces/${wsId}/schedules/${fixtures.scheduleId}`);

  const refused: Refusal[] = [
    { name: "list API keys", method: "GET", path: () => "/api/auth/api-keys" },
    {
      name: "create an API key",
      method: "POST",
      path: () => "/api/auth/api-keys",
      json: () => ({ name: "stolen" }),
      unchanged: async () => expect((await adminGet("/api/auth/api-keys")).map((k: { name: string }) => k.name)).not.toContain("stolen"),
    },
    { name: "delete an API key", method: "DELETE", path: () => `/api/auth/api-keys/${fixtures.keyId}` },
    { name: "list users", method: "GET", path: () => "/api/users" },
    { name: "create a user", method: "POST", path: () => "/api/users", json: () => ({ username: "intruder", password: "intruder-pass" }) },
    {
      name: "change a user",
      method: "PATCH",
      path: () => `/api/users/${fixtures.userId}`,
      json: () => ({ is_admin: true }),
      unchanged: async () =>
        expect((await adminGet("/api/users")).find((u: { username: string }) => u.username === "bystander").is_admin).toBe(false),
    },
    { name: "list workspaces", method: "GET", path: () => "/api/workspaces" },
    { name: "create a workspace", method: "POST", path: () => "/api/workspaces", json: () => ({ name: "agent's own" }) },
    { name: "list members", method: "GET", path: ws("/members") },
    {
      name: "add a member",
      method: "POST",
      path: ws("/members"),
      json: () => ({ username: "bystander", role: "owner" }),
      unchanged: async () => expect(await adminGet(`/api/workspaces/${wsId}/members`)).toHaveLength(1),
    },
    { name: "remove a member", method: "DELETE", path: () => `/api/workspaces/${wsId}/members/${fixtures.userId}` },
    // The code host decides where agents' work is pushed.
    { name: "connect the code host", method: "PUT", path: ws("/codehost"), json: () => ({ installation_id: 1, repo: "o/r" }) },
    { name: "disconnect the code host", method: "DELETE", path: ws("/codehost") },
    { name: "connect GitHub", method: "PUT", path: ws("/github"), json: () => ({ installation_id: 1, repo: "o/r" }) },
    { name: "disconnect GitHub", method: "DELETE", path: ws("/github") },
    { name: "install the GitHub App", method: "POST", path: ws("/codehost/github/install") },
    { name: "change code-host settings", method: "PATCH", path: ws("/codehost/github/settings"), json: () => ({ merged_to_done: false }) },
    { name: "list the code host's repositories", method: "GET", path: ws("/codehost/github/repositories") },
    { name: "list GitHub deliveries", method: "GET", path: ws("/codehost/github/deliveries") },
    // An agent profile is a command the server runs; the repository is where agents work.
    { name: "create an agent profile", method: "POST", path: ws("/agents"), json: () => ({ name: "sh", kind: "command", command: "sh" }) },
    {
      name: "change an agent profile",
      method: "PATCH",
      path: () => `/api/workspaces/${wsId}/agents/${fixtures.agentId}`,
      json: () => ({ command: "sh" }),
      unchanged: async () => expect((await adminGet(`/api/workspaces/${wsId}/agents/${fixtures.agentId}`)).command).toBe("true"),
    },
    {
      name: "choose the default agent profile",
      method: "PATCH",
      path: () => `/api/workspaces/${wsId}/agents/${fixtures.agentId}`,
      json: () => ({ is_default: true }),
    },
    { name: "delete an agent profile", method: "DELETE", path: () => `/api/workspaces/${wsId}/agents/${fixtures.agentId}` },
    { name: "set the repository", method: "PUT", path: ws("/repository"), json: () => ({ url: "https://example.invalid/r.git" }) },
    { name: "remove the repository", method: "DELETE", path: ws("/repository") },
    // Webhooks send the workspace's activity to a URL of the owner's choosing.
    { name: "list webhooks", method: "GET", path: ws("/webhooks") },
    {
      name: "create a webhook",
      method: "POST",
      path: ws("/webhooks"),
      json: () => ({ url: "https://example.invalid/hook", events: ["*"] }),
    },
    { name: "read a webhook", method: "GET", path: ws(`/webhooks/${fakeId}`) },
    { name: "change a webhook", method: "PATCH", path: ws(`/webhooks/${fakeId}`), json: () => ({ enabled: false }) },
    { name: "delete a webhook", method: "DELETE", path: ws(`/webhooks/${fakeId}`) },
    { name: "list a webhook's deliveries", method: "GET", path: ws(`/webhooks/${fakeId}/deliveries`) },
    { name: "redeliver a webhook delivery", method: "POST", path: ws(`/webhooks/${fakeId}/deliveries/${fakeId}/redeliver`) },
    // What leaves for GitHub is a person's call.
    {
      name: "open a pull request",
      method: "POST",
      path: () => `/api/workspaces/${wsId}/tasks/${fixtures.taskId}/pull-request`,
      json: () => ({}),
    },
    // A schedule keeps starting runs as the person who made it.
    {
      name: "create a schedule",
      method: "POST",
      path: ws("/schedules"),
      json: () => ({ name: "agent's cron", cron: "* * * * *" }),
      unchanged: async () => expect(await adminGet(`/api/workspaces/${wsId}/schedules`)).toHaveLength(1),
    },
    {
      name: "change a schedule",
      method: "PATCH",
      path: () => `/api/workspaces/${wsId}/schedules/${fixtures.scheduleId}`,
      json: () => ({ cron: "* * * * *" }),
      unchanged: async () => expect((await schedule()).cron).toBe("0 3 * * *"),
    },
    {
      name: "delete a schedule",
      method: "DELETE",
      path: () => `/api/workspaces/${wsId}/schedules/${fixtures.scheduleId}`,
      unchanged: async () => expect((await schedule()).id).toBe(fixtures.scheduleId),
    },
    {
      name: "trigger a schedule",
      method: "POST",
      path: () => `/api/workspaces/${wsId}/schedules/${fixtures.scheduleId}/trigger`,
      unchanged: async () => expect((await schedule()).last_triggered_at).toBeNull(),
    },
    // Questions are for people, an agent's own permission requests included.
    {
      name: "answer a question",
      method: "POST",
      path: () => `/api/workspaces/${wsId}/questions/${fixtures.questionId}/answer`,
      json: () => ({ answer: "yes" }),
      unchanged: async () => {
        const [question] = await adminGet(`/api/workspaces/${wsId}/questions?task_id=${fixtures.taskId}`);
        expect(question).toMatchObject({ status: "open", answer: null, answered_by: null });
      },
    },
    // The App pushes a task's commits to its branch; a pr_url links it to a pull request.
    {
      name: "set a task's branch",
      method: "PATCH",
      path: () => `/api/workspaces/${wsId}/tasks/${fixtures.taskId}`,
      json: () => ({ branch: "release/x", title: "with a branch" }),
      unchanged: async () => expect(await task()).toMatchObject({ branch: null, title: "a person's task" }),
    },
    {
      name: "set a task's pr_url",
      method: "PATCH",
      path: () => `/api/workspaces/${wsId}/tasks/${fixtures.taskId}`,
      json: () => ({ pr_url: "https://github.com/someone/else/pull/7" }),
      unchanged: async () => expect((await task()).pr_url).toBeNull(),
    },
    {
      name: "clear a task's pr_url",
      method: "PATCH",
      path: () => `/api/workspaces/${wsId}/tasks/${fixtures.taskId}`,
      json: () => ({ pr_url: null }),
    },
    {
      name: "create a task with a pr_url",
      method: "POST",
      path: ws("/tasks"),
      json: () => ({ title: "linked by an agent", pr_url: "https://github.com/someone/else/pull/7" }),
      unchanged: async () => {
        const found = await adminGet(`/api/workspaces/${wsId}/tasks?search=linked%20by%20an%20agent`);
        expect(found.items).toHaveLength(0);
      },
    },
  ];

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
