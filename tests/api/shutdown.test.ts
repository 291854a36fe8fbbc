import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  engineServer,
  eventually,
  finished,
  FIXTURE_AGENT,
  newStore,
  newTask,
  outputLines,
  processAlive,
  workspaceOn,
  type EngineServer,
  type Store,
  runningAgent,
} from "../helpers/engine";
import { openStream } from "../helpers/sse";
import { descendants } from "../../scripts/lib/process-tree.mjs";

// SIGTERM on the server, as a deploy, `docker stop` (10 s, then SIGKILL) or a pod's stop sends it
// (lib/server/shutdown.ts, docs/runners.md "Stopping the server"): the server and its embedded
// runner end within 10 s when no agent runs, whatever event streams are open and whether or not the
// data directory is still there; with an agent mid-run, within RUNNER_GRACE_SECONDS + 15 s, and
// the run is handed back first, so the next server's runner takes it and finishes it.

let stores: Store[] = [];
let servers: EngineServer[] = [];

afterEach(async () => {
  for (const server of servers) await server.stop();
  for (const store of stores) await store.drop();
  servers = [];
  stores = [];
});

async function serve(label: string, env: Record<string, string> = {}, store?: Store) {
  if (!store) {
    store = await newStore(label);
    stores.push(store);
  }
  const server = await engineServer(store, { AGENT_COMMAND: FIXTURE_AGENT, ...env }, label);
  servers.push(server);
  return { server, store };
}

/** The server's process and all of its descendants (the embedded runner, its agents), read from /proc. */
function processTree(root: number): { pid: number; command: string }[] {
  return (descendants(root) as number[]).map((pid) => {
    let command = "";
    try {
      command = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
    } catch {
      // gone meanwhile
    }
    return { pid, command };
  });
}

/** What PostgreSQL's control file says of the embedded database: "shut down" after a clean close. */
function pgliteClusterState(dataDir: string): string {
  // ControlFileData: system_identifier (8 bytes), pg_control_version, catalog_version_no, then state.
  const state = fs.readFileSync(path.join(dataDir, "pglite", "global", "pg_control")).readInt32LE(16);
  return [
    "starting up",
    "shut down",
    "shut down in recovery",
    "shutting down",
    "in crash recovery",
    "in archive recovery",
    "in production",
  ][state];
}

/** SIGTERM to the server; the seconds until it and every process it had started are gone. */
async function terminate(server: EngineServer, limitSeconds: number) {
  const tree = processTree(server.child.pid!);
  const runner = tree.find(({ command }) => command.includes("--embedded"));
  // The embedded runner runs from the bundle `npm run build` made, not through tsx.
  expect(runner?.command).toContain(".next/runner/main.mjs");
  expect(runner?.command).not.toContain("tsx");
  const sent = Date.now();
  server.child.kill("SIGTERM");
  await eventually(
    async () => (tree.every(({ pid }) => !processAlive(pid)) ? true : undefined),
    limitSeconds * 1000 + 5000,
    `the server's processes to end: ${JSON.stringify(tree.filter(({ pid }) => processAlive(pid)))}\n${server.output.join("")}`,
  );
  return (Date.now() - sent) / 1000;
}

/** A request on a keep-alive connection that then stays open, idle: the answer's headers. */
function idleConnection(url: string, agent: http.Agent): Promise<http.IncomingHttpHeaders> {
  return new Promise((resolve, reject) => {
    http
      .get(`${url}/api/health`, { agent }, (response) => {
        response.resume();
        response.on("end", () => resolve(response.headers));
      })
      .on("error", reject);
  });
}

describe("SIGTERM with no agent running", () => {
  it("ends the server and its runner within 10 s with an event stream and an idle connection open, the stream's last event saying to reconnect", async () => {
    const { server, store } = await serve("shutdown-stream");
    const { token, wsId } = await workspaceOn(server);
    const stream = await openStream(`${server.url}/api/workspaces/${wsId}/events`, { authorization: `Bearer ${token}` });
    expect(stream.status).toBe(200);
    // Idle connections are kept 65 s (scripts/lib/next-start.mjs), not Node's 5: a stop must not wait for them.
    const agent = new http.Agent({ keepAlive: true });
    expect((await idleConnection(server.url, agent))["keep-alive"]).toBe("timeout=65");
    expect(Object.values(agent.freeSockets).flat()).toHaveLength(1);
    await newTask(server.call, token, wsId, { title: "seen before the stop" });
    expect((await stream.next(10_000, "task.created")).event).toBe("task.created");

    const took = await terminate(server, 10);
    expect(took).toBeLessThanOrEqual(10);
    const last = await stream.next(1000, "the reconnect event");
    // No id: the reader's cursor stays the task.created it got, and it resumes from there.
    expect(last).toEqual({ event: "reconnect", data: JSON.stringify({ reason: "the server is stopping", retry_ms: 2000 }) });
    await stream.ended;
    expect(server.output.join("")).toContain("SIGTERM: stopping; 1 event stream(s) told to reconnect");
    // The embedded database was closed on the way out (its checkpoint written: no recovery at the next start).
    if (store.kind === "pglite") expect(pgliteClusterState(store.dataDir)).toBe("shut down");
    agent.destroy();
  }, 180_000);

  it("ends within 10 s when its data directory was removed and nobody reads its output any more", async () => {
    const { server, store } = await serve("shutdown-no-data");
    const { token, wsId } = await workspaceOn(server);
    const stream = await openStream(`${server.url}/api/workspaces/${wsId}/events`, { authorization: `Bearer ${token}` });
    // As when whatever started it died (a test runner that timed out): its writes fail with EPIPE,
    // and the errors of a missing directory are written. Once, that spun the server at full CPU for good.
    server.child.stdout!.destroy();
    server.child.stderr!.destroy();
    fs.rmSync(store.dataDir, { recursive: true, force: true });
    await server.call("POST", `/api/workspaces/${wsId}/tasks`, { token, json: { title: "after the directory went" } });
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(await terminate(server, 10)).toBeLessThanOrEqual(10);
    await stream.ended;
  }, 180_000);
});

describe("SIGTERM with an agent mid-run", () => {
  it("hands the run back and ends within RUNNER_GRACE_SECONDS + 15 s; the restarted server's runner finishes it", async () => {
    const env = { RUNNER_GRACE_SECONDS: "5", AGENT_TIMEOUT_SECONDS: "120" };
    const { server, store } = await serve("shutdown-agent", env);
    const { token, wsId } = await workspaceOn(server);
    const task = await newTask(server.call, token, wsId, { title: "outlives the server" });
    // Asleep well past the 5 s grace: with 8 s, a slow, loaded machine sent SIGTERM late enough for
    // the agent to wake before it was handed back (seen in a working copy beside the browser tests).
    const { base, row: running } = await runningAgent(server.call, token, wsId, task.id, "sleep 20", "the agent to start");
    expect(processTree(server.child.pid!).map(({ pid }) => pid)).toContain(running.runner_pid);

    const stopped = terminate(server, 20);
    // While the runner hands back, the server still answers: a stream opened now gets only `reconnect`.
    const late = await eventually(async () => {
      const stream = await openStream(`${server.url}/api/workspaces/${wsId}/events`, { authorization: `Bearer ${token}` });
      return stream.status === 200 ? stream : undefined;
    });
    expect(await late.next(5000, "the reconnect event")).toMatchObject({ event: "reconnect" });
    await late.ended;
    expect(await stopped).toBeLessThanOrEqual(20);
    expect(server.output.join("")).toContain("embedded runner exited");

    const restarted = (await serve("shutdown-agent-again", env, store)).server;
    const done = await finished(restarted.call, token, wsId, running.id, 90_000);
    expect(done).toMatchObject({ status: "succeeded", exit_code: 0 });
    const log = (await restarted.call("GET", `${base}/log`, { token })).body;
    expect(outputLines(log)).toEqual(["sleeping 20 s", "sleeping 20 s", "woke up"]);
    expect(log.entries.find((entry: { type: string }) => entry.type === "error")).toMatchObject({
      update: { message: expect.stringContaining("Handed back by the runner embedded") },
    });
  }, 300_000);
});
