import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { inject } from "vitest";
import { seedPglite, startServer } from "../../scripts/lib/server.mjs";
import { createScratchDatabase } from "../../scripts/lib/postgres.mjs";
import { client, newUser, newWorkspace, sharedServer } from "./api";
import { openStream, type SseStream } from "./sse";

// Servers of their own for the runner and scheduler tests: each needs its own agent command,
// limits or restarts. The database kind follows TEST_DATABASE like the shared server's.

const FIXTURE_AGENT_FILE = path.resolve(import.meta.dirname, "../fixtures/agent.mjs");
export const FIXTURE_AGENT = `${process.execPath} ${FIXTURE_AGENT_FILE}`;
const ADMIN = { username: "admin", password: "engine-admin-password" };

export const databaseKind = () => inject("databaseKind");

/** Where a group of servers keeps its data: one PGlite directory or one scratch PostgreSQL database. */
export async function newStore(label: string) {
  const kind = databaseKind();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `taskboard-${label}-`));
  const scratch = kind === "postgresql" ? await createScratchDatabase("taskboard_engine", { migrated: true }) : undefined;
  seedPglite(scratch?.url, dataDir);
  return {
    kind,
    dataDir,
    databaseUrl: scratch?.url,
    /** SQL on the store; on PGlite only while no server has it open. */
    async sql(text: string, params: unknown[] = []) {
      if (scratch) {
        const client = new pg.Client({ connectionString: scratch.url });
        await client.connect();
        try {
          return (await client.query(text, params)).rows;
        } finally {
          await client.end();
        }
      }
      const { openTestPglite } = await import("./empty-pglite");
      const db = openTestPglite(path.join(dataDir, "pglite"));
      try {
        return (await db.query(text, params)).rows as Record<string, unknown>[];
      } finally {
        await db.close();
      }
    },
    async drop() {
      fs.rmSync(dataDir, { recursive: true, force: true });
      await scratch?.drop();
    },
  };
}

export type Store = Awaited<ReturnType<typeof newStore>>;

/** `port`: start again where a killed server was, so the runners that outlived it find it. */
export async function engineServer(store: Store, env: Record<string, string>, label = "engine", port?: number) {
  const server = await startServer({
    databaseUrl: store.databaseUrl,
    dataDir: store.dataDir,
    label,
    port,
    // A runner driven by hand claims only when its test says so: a start that waited for it would
    // wait its whole 3 s (RUN_START_WAIT_SECONDS) in every test.
    env: {
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      ...(env.RUNNER_EMBEDDED === "false" ? { RUN_START_WAIT_SECONDS: "0" } : {}),
      ...env,
    },
  });
  const call = client(server.url);
  if (env.RUNNER_EMBEDDED !== "false") await embeddedRunnerOnline(call, label);
  return { ...server, call };
}

/**
 * Until the server's own runner has come online: the web server answers health before its runner
 * child (node, from the runner bundle) has started and claimed, and a run started in that moment stays queued
 * ("waiting for a runner") where a test expects the answer to say it is running.
 */
async function embeddedRunnerOnline(call: ReturnType<typeof client>, label: string) {
  const login = await call("POST", "/api/auth/login", { json: ADMIN });
  if (login.status !== 200) return; // a server without the password admin: its tests wait themselves
  const token = login.body.access_token as string;
  await eventually(
    async () => {
      const runners = await call("GET", "/api/runners", { token });
      return (
        runners.body.some?.((r: { name: string; status: string }) => r.name.startsWith("embedded (") && r.status === "online") || undefined
      );
    },
    60_000,
    `${label}: the embedded runner online`,
  );
}

export type EngineServer = Awaited<ReturnType<typeof engineServer>>;

/** The admin's token and a fresh workspace on that server. */
export async function workspaceOn(server: { call: ReturnType<typeof client> }) {
  const login = await server.call("POST", "/api/auth/login", { json: ADMIN });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${JSON.stringify(login.body)}`);
  const token = login.body.access_token as string;
  const ws = await server.call("POST", "/api/workspaces", { token, json: { name: `ws-${Date.now()}` } });
  if (ws.status !== 201) throw new Error(`workspace: ${ws.status}`);
  return { token, wsId: ws.body.id as string };
}

/** How a profile starts its agent (no shell): the test fixture unless a file needs another. */
export type AgentCommand = { command: string; args: string[]; kind?: "command" | "acp" };

const FIXTURE: AgentCommand = { command: process.execPath, args: [FIXTURE_AGENT_FILE] };

/**
 * On the shared server: an administrator's workspace whose default agent is `agent` (the test
 * fixture by default), as a profile of its own (a profile's command is an administrator's to
 * choose), so a file that needs only its own agent starts no server (docs/testing.md).
 */
export async function agentWorkspace(agent: AgentCommand = FIXTURE) {
  const server = sharedServer();
  const owner = await newUser({ isAdmin: true });
  const wsId = (await newWorkspace(owner.token)).id;
  const agentId = await defaultAgent(server, owner.token, wsId, agent);
  return { server, token: owner.token, username: owner.username, wsId, agentId };
}

/** Makes `agent` the workspace's default agent profile: its id. */
export async function defaultAgent(
  server: { call: ReturnType<typeof client> },
  token: string,
  wsId: string,
  agent: AgentCommand = FIXTURE,
) {
  const { kind = "command", ...command } = agent;
  const profile = await server.call("POST", `/api/workspaces/${wsId}/agents`, {
    token,
    json: { name: "default", kind, ...command, is_default: true },
  });
  if (profile.status !== 201) throw new Error(`agent profile: ${profile.status} ${JSON.stringify(profile.body)}`);
  return profile.body.id as string;
}

/** `agentWorkspace` with the test fixture (tests/fixtures/agent.mjs) as its agent. */
export const fixtureAgentWorkspace = () => agentWorkspace();

export async function newTask(call: ReturnType<typeof client>, token: string, wsId: string, fields: Record<string, unknown>) {
  const created = await call("POST", `/api/workspaces/${wsId}/tasks`, { token, json: { status: "todo", ...fields } });
  if (created.status !== 201) throw new Error(`create task: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body as { id: string; title: string; status: string };
}

/**
 * Checks until `check` returns a value (not undefined), or fails after `timeoutMs`: every 100 ms, or,
 * given `wake` (the workspace's event stream), again at each event and at least every second.
 */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 15_000,
  what = "condition",
  wake?: SseStream,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ""}`);
    if (!wake || !(await woken(wake, Math.min(1_000, Math.max(1, deadline - Date.now()))))) await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits for the stream's next event (or `ms`), then takes whatever else arrived: one check answers them all. False once the stream ended. */
async function woken(stream: SseStream, ms: number): Promise<boolean> {
  try {
    await stream.next(ms);
  } catch (error) {
    if (/stream ended/.test((error as Error).message)) return false;
  }
  for (;;) {
    try {
      await stream.next(0);
    } catch {
      return true;
    }
  }
}

const FINISHED = ["succeeded", "failed", "cancelled", "timed_out"];

/**
 * Every reaction of the workspace has handled every event recorded so far (GET …/reactions, owners):
 * after it, "nothing was started" is a fact, not a race.
 */
export async function reactionsCaughtUp(call: ReturnType<typeof client>, token: string, wsId: string, timeoutMs = 30_000) {
  return eventually(
    async () => {
      const response = await call("GET", `/api/workspaces/${wsId}/reactions`, { token });
      const states = response.body as { name: string; behind: number; attempts: number; last_error: string | null }[];
      return states.every((state) => state.behind === 0 && state.attempts === 0) ? states : undefined;
    },
    timeoutMs,
    `the reactions of workspace ${wsId} to catch up`,
  );
}

/** Until the run has ended: checked at each event of its workspace's stream, not on a 100 ms poll. */
export async function finished(call: ReturnType<typeof client>, token: string, wsId: string, executionId: string, timeoutMs = 20_000) {
  const stream = await openStream(`${call.url}/api/workspaces/${wsId}/events`, { authorization: `Bearer ${token}` }).catch(() => undefined);
  try {
    return await eventually(
      async () => {
        const response = await call("GET", `/api/workspaces/${wsId}/executions/${executionId}`, { token });
        return FINISHED.includes(response.body?.status) ? response.body : undefined;
      },
      timeoutMs,
      `execution ${executionId} to finish`,
      stream?.status === 200 ? stream : undefined,
    );
  } finally {
    stream?.close();
  }
}

/** Starts a run of `instructions` on the task and waits until its agent runs (a pid, two lines of output): the execution's row. */
export async function runningAgent(
  call: ReturnType<typeof client>,
  token: string,
  wsId: string,
  taskId: string,
  instructions: string,
  what = "the agent to start",
) {
  const started = await call("POST", `/api/workspaces/${wsId}/tasks/${taskId}/runs`, { token, json: { instructions } });
  if (started.status !== 202) throw new Error(`start run: ${started.status} ${JSON.stringify(started.body)}`);
  const base = `/api/workspaces/${wsId}/executions/${started.body.id}`;
  const row = await eventually(
    async () => {
      const row = (await call("GET", base, { token })).body;
      return row.runner_pid && row.line_count >= 2 ? row : undefined;
    },
    60_000,
    what,
  );
  return { base, row };
}

/** A zombie (exited, not yet reaped by whoever inherited it) counts as gone. */
export function processAlive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** The text of a log page's `output` entries (a command agent's lines), in order. */
export function outputLines(log: { entries: { type: string; update: { text?: string } }[] }): string[] {
  return log.entries.filter((entry) => entry.type === "output").map((entry) => entry.update.text ?? "");
}
