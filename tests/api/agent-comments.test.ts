import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUser, newWorkspace, sharedServer } from "../helpers/api";
import { eventually, newTask, outputLines } from "../helpers/engine";
import { data, mcpConnector, tool } from "../helpers/mcp";

// Comments by an agent (issue #37): the token a run hands its agent (TASKBOARD_API_TOKEN) comments
// as that agent, over REST and MCP (comment_on_task), only in its own workspace, and changes only
// its own comments; its `@agent-name` follows the rules of agent-started runs (its own profile only).
// On the shared server, in an administrator's workspaces of its own (the profiles run the fixture).

const AGENT = path.resolve(import.meta.dirname, "../fixtures/agent.mjs");

let server: ReturnType<typeof sharedServer>;
let admin: string;
let wsId: string;
let otherWs: string;
let own: { id: string; name: string };
let other: { id: string; name: string };
let agentToken: string;
let executionId: string;

const connect = mcpConnector(() => server.url);

async function profile(name: string) {
  const created = await server.call("POST", `/api/workspaces/${wsId}/agents`, {
    token: admin,
    json: { name, kind: "command", command: process.execPath, args: [AGENT] },
  });
  expect(created.status).toBe(201);
  return { id: created.body.id as string, name };
}

beforeAll(async () => {
  server = sharedServer();
  admin = (await newUser({ isAdmin: true })).token;
  wsId = (await newWorkspace(admin)).id;
  otherWs = (await newWorkspace(admin)).id;
  own = await profile("Helper Bot");
  other = await profile("Other Bot");
  const task = await newTask(server.call, admin, wsId, { title: "hold" });
  const started = await server.call("POST", `/api/workspaces/${wsId}/tasks/${task.id}/runs`, {
    token: admin,
    json: { instructions: "hold 300", agent_id: own.id },
  });
  expect(started.status).toBe(202);
  executionId = started.body.id;
  agentToken = await eventually(async () => {
    const log = await server.call("GET", `/api/workspaces/${wsId}/executions/${executionId}/log`, { token: admin });
    return outputLines(log.body)
      .find((line) => line.startsWith("TOKEN="))
      ?.slice("TOKEN=".length);
  }, 30_000);
}, 60_000);

afterAll(async () => {
  // It holds one of the shared runner's slots until cancelled.
  if (executionId) await server.call("POST", `/api/workspaces/${wsId}/executions/${executionId}/cancel`, { token: admin });
});

const comments = (workspace: string, taskId: string) => `/api/workspaces/${workspace}/tasks/${taskId}/comments`;
const runsOf = async (taskId: string) =>
  (await server.call("GET", `/api/workspaces/${wsId}/tasks/${taskId}/runs`, { token: admin })).body as { trigger: string }[];

describe("an agent token", () => {
  it("comments as its run's agent profile, over REST and MCP", async () => {
    const task = await newTask(server.call, admin, wsId, { title: "talk" });
    const created = await server.call("POST", comments(wsId, task.id), { token: agentToken, json: { body: "Done: see the diff" } });
    expect(created.status).toBe(201);
    expect(created.body.author).toEqual({ kind: "agent", id: own.id, name: own.name });
    const viaMcp = data(await tool(await connect(agentToken), "comment_on_task", { task_id: task.id, body: "From MCP" }));
    expect(viaMcp).toMatchObject({ body: "From MCP", author: { kind: "agent", id: own.id } });
    const bad = await tool(await connect(agentToken), "comment_on_task", { task_id: task.id, body: "" });
    expect(bad.isError).toBe(true);
    const list = await server.call("GET", comments(wsId, task.id), { token: admin });
    expect(list.body.items.map((c: { body: string }) => c.body)).toEqual(["Done: see the diff", "From MCP"]);
  });

  it("changes only its own comments; people cannot change the agent's", async () => {
    const task = await newTask(server.call, admin, wsId, { title: "edits" });
    const theirs = (await server.call("POST", comments(wsId, task.id), { token: agentToken, json: { body: "agent's" } })).body;
    const mine = (await server.call("POST", comments(wsId, task.id), { token: admin, json: { body: "person's" } })).body;
    const patch = (id: string, token: string) =>
      server.call("PATCH", `${comments(wsId, task.id)}/${id}`, { token, json: { body: "changed" } });
    expect((await patch(mine.id, agentToken)).status).toBe(403);
    expect((await server.call("DELETE", `${comments(wsId, task.id)}/${mine.id}`, { token: agentToken })).status).toBe(403);
    expect((await patch(theirs.id, admin)).status).toBe(403);
    const edited = await patch(theirs.id, agentToken);
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ edited: true, author: { kind: "agent", id: own.id } });
    expect((await server.call("DELETE", `${comments(wsId, task.id)}/${theirs.id}`, { token: agentToken })).status).toBe(204);
  });

  it("cannot comment in another workspace of its user", async () => {
    const task = await newTask(server.call, admin, otherWs, { title: "elsewhere" });
    const refused = await server.call("POST", comments(otherWs, task.id), { token: agentToken, json: { body: "hi" } });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/only inside their own workspace/);
    const viaMcp = await tool(await connect(agentToken), "comment_on_task", { workspace_id: otherWs, task_id: task.id, body: "hi" });
    expect(viaMcp.isError).toBe(true);
    expect((await server.call("GET", comments(otherWs, task.id), { token: admin })).body.items).toEqual([]);
  });

  it("naming another agent profile starts nothing; naming its own starts one run", async () => {
    const task = await newTask(server.call, admin, wsId, { title: "others" });
    const named = await server.call("POST", comments(wsId, task.id), { token: agentToken, json: { body: "@other-bot take over" } });
    expect(named.status).toBe(201);
    expect(await runsOf(task.id)).toEqual([]);
    const self = await newTask(server.call, admin, wsId, { title: "self" });
    await server.call("POST", comments(wsId, self.id), { token: agentToken, json: { body: "@Helper Bot continue here" } });
    const runs = await runsOf(self.id);
    expect(runs.map((run) => run.trigger)).toEqual(["mentioned"]);
    expect(other.id).not.toBe(own.id);
  });
});
