import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineServer, eventually, newStore, newTask, outputLines, workspaceOn, type EngineServer, type Store } from "../helpers/engine";
import { data, mcpConnector, tool } from "../helpers/mcp";

// Runs started with an agent's token (TASKBOARD_API_TOKEN), issue #35 finding 4: the new run keeps
// its starter's profile (another one is refused, on the REST route and in MCP start_run), says
// which run started it, and agents chain runs at most AGENT_RUN_CHAIN_MAX deep and start at most
// AGENT_STARTED_RUNS_PER_MINUTE a workspace. The runs are the fixture agent under a profile; the
// workspace's default profile is a wider one, which an agent's run must not get by leaving agent_id out.

const AGENT = path.resolve(import.meta.dirname, "../fixtures/agent.mjs");

let store: Store;
let server: EngineServer;
let admin: string;
let wsId: string;
let own: string;
let wide: string;
const holding: { wsId: string; id: string }[] = [];

beforeAll(async () => {
  store = await newStore("agent-started-runs");
  server = await engineServer(store, {
    AGENT_MAX_CONCURRENT: "8",
    AGENT_RUN_CHAIN_MAX: "2",
    AGENT_STARTED_RUNS_PER_MINUTE: "3",
    AGENT_TIMEOUT_SECONDS: "300",
    AGENT_LOG_FLUSH_MS: "100",
  });
  ({ token: admin, wsId } = await workspaceOn(server));
  own = await profile(wsId, { name: "own" });
  wide = await profile(wsId, { name: "wide", network: "full", is_default: true });
}, 120_000);

afterAll(async () => {
  for (const run of holding) await server?.call("POST", `/api/workspaces/${run.wsId}/executions/${run.id}/cancel`, { token: admin });
  await server?.stop();
  await store?.drop();
});

const connect = mcpConnector(() => server.url);

async function profile(workspace: string, fields: Record<string, unknown>): Promise<string> {
  const created = await server.call("POST", `/api/workspaces/${workspace}/agents`, {
    token: admin,
    json: { kind: "command", command: process.execPath, args: [AGENT], ...fields },
  });
  expect(created.status).toBe(201);
  return created.body.id;
}

const startRun = (bearer: string, workspace: string, taskId: string, json: Record<string, unknown>) =>
  server.call("POST", `/api/workspaces/${workspace}/tasks/${taskId}/runs`, { token: bearer, json });

/** A run of `hold 300` on a new task, started with `bearer`, and the agent token it prints. */
async function holdingRun(bearer: string, workspace: string, json: Record<string, unknown> = {}) {
  const task = await newTask(server.call, admin, workspace, { title: "hold" });
  const started = await startRun(bearer, workspace, task.id, { instructions: "hold 300", ...json });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  holding.push({ wsId: workspace, id: started.body.id });
  const token = await eventually(async () => {
    const log = await server.call("GET", `/api/workspaces/${workspace}/executions/${started.body.id}/log`, { token: admin });
    return outputLines(log.body)
      .find((line) => line.startsWith("TOKEN="))
      ?.slice("TOKEN=".length);
  }, 30_000);
  return { execution: started.body, token };
}

const runsOf = async (workspace: string, taskId: string) =>
  (await server.call("GET", `/api/workspaces/${workspace}/tasks/${taskId}/runs`, { token: admin })).body as unknown[];

describe("a run started with an agent token", () => {
  let root: Awaited<ReturnType<typeof holdingRun>>;

  beforeAll(async () => {
    root = await holdingRun(admin, wsId, { agent_id: own });
  }, 60_000);

  it("is a person's run when a person starts it: no starter, chain depth 0", () => {
    expect(root.execution).toMatchObject({ agent_id: own, started_by_execution_id: null, chain_depth: 0 });
  });

  it("may not name another profile: 403 in words on the REST route and in MCP start_run, and no run is made", async () => {
    const task = await newTask(server.call, admin, wsId, { title: "wider" });
    const refused = await startRun(root.token, wsId, task.id, { agent_id: wide, instructions: "succeed" });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/only with the agent profile of its own run: leave out agent_id/);
    const agent = await connect(root.token);
    const viaMcp = await tool(agent, "start_run", { workspace_id: wsId, task_id: task.id, agent_id: wide, instructions: "succeed" });
    expect(viaMcp.isError).toBe(true);
    expect(viaMcp.content[0].text).toMatch(/only with the agent profile of its own run/);
    expect(await runsOf(wsId, task.id)).toEqual([]);
  });

  it("runs its starter's profile, not the workspace's default, and says which run started it", async () => {
    const child = await holdingRun(root.token, wsId);
    expect(child.execution).toMatchObject({ agent_id: own, started_by_execution_id: root.execution.id, chain_depth: 1 });
    const read = await server.call("GET", `/api/workspaces/${wsId}/executions/${child.execution.id}`, { token: admin });
    expect(read.body).toMatchObject({ agent_id: own, started_by_execution_id: root.execution.id, chain_depth: 1 });
    // Naming its own profile is allowed, in MCP too.
    const task = await newTask(server.call, admin, wsId, { title: "same profile" });
    const viaMcp = data(
      await tool(await connect(child.token), "start_run", { workspace_id: wsId, task_id: task.id, agent_id: own, instructions: "succeed" }),
    );
    expect(viaMcp).toMatchObject({ agent_id: own, started_by_execution_id: child.execution.id, chain_depth: 2 });

    // AGENT_RUN_CHAIN_MAX is 2: the grandchild of a person's run may start no run of its own.
    const grandchild = await holdingRun(child.token, wsId);
    expect(grandchild.execution).toMatchObject({ started_by_execution_id: child.execution.id, chain_depth: 2 });
    const deeper = await newTask(server.call, admin, wsId, { title: "too deep" });
    const refused = await startRun(grandchild.token, wsId, deeper.id, { instructions: "succeed" });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/already 2 deep in a chain of runs started by agents, and agents may chain at most 2/);
    expect(await runsOf(wsId, deeper.id)).toEqual([]);
    // A person starts it.
    expect((await startRun(admin, wsId, deeper.id, { instructions: "succeed" })).status).toBe(202);
  }, 120_000);
});

describe("an agent token assigning an agent profile (issue #37)", () => {
  it("starts a run continuing its own with its own profile; another profile starts nothing, and the reaction says why", async () => {
    const { wsId: other } = await workspaceOn(server);
    const mine = await profile(other, { name: "own" });
    const wider = await profile(other, { name: "wide", network: "full" });
    const root = await holdingRun(admin, other, { agent_id: mine });
    const assign = async (title: string, agentId: string) => {
      const task = await newTask(server.call, admin, other, { title });
      const patched = await server.call("PATCH", `/api/workspaces/${other}/tasks/${task.id}`, {
        token: root.token,
        json: { assignees: [{ kind: "agent", id: agentId }] },
      });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
      return task.id;
    };
    const refusedTask = await assign("assigned wider", wider);
    expect(await runsOf(other, refusedTask)).toEqual([]);
    const states = await server.call("GET", `/api/workspaces/${other}/reactions`, { token: admin });
    const reaction = states.body.find((state: { name: string }) => state.name === "start-assigned-agents");
    expect(reaction.last_error).toMatch(/only with the agent profile of its own run/);

    const startedTask = await assign("succeed", mine);
    const [run] = (await runsOf(other, startedTask)) as { execution_id: string; trigger: string }[];
    expect(run.trigger).toBe("assigned");
    const execution = await server.call("GET", `/api/workspaces/${other}/executions/${run.execution_id}`, { token: admin });
    expect(execution.body).toMatchObject({ agent_id: mine, started_by_execution_id: root.execution.id, chain_depth: 1 });
  }, 120_000);
});

describe("agent-started runs of a workspace", () => {
  it("are limited to AGENT_STARTED_RUNS_PER_MINUTE: 429 with Retry-After, in words; a person's runs do not count", async () => {
    const { wsId: other } = await workspaceOn(server);
    const root = await holdingRun(admin, other, { agent_id: await profile(other, { name: "own" }) });
    for (let n = 0; n < 3; n++) {
      const task = await newTask(server.call, admin, other, { title: `agent's run ${n}` });
      expect((await startRun(root.token, other, task.id, { instructions: "succeed" })).status).toBe(202);
    }
    const task = await newTask(server.call, admin, other, { title: "one too many" });
    const refused = await startRun(root.token, other, task.id, { instructions: "succeed" });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect(refused.body.detail).toMatch(/have started 3 runs in the last minute \(AGENT_STARTED_RUNS_PER_MINUTE\); try again in \d+ s/);
    expect(await runsOf(other, task.id)).toEqual([]);
    expect((await startRun(admin, other, task.id, { instructions: "succeed" })).status).toBe(202);
  }, 120_000);
});
