import { spawnRunner, stopRunner } from "../helpers/runner-process";
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../scripts/lib/server.mjs";
import { client } from "../helpers/api";
import { eventually, finished, FIXTURE_AGENT, newStore, newTask, outputLines, workspaceOn, type Store } from "../helpers/engine";

// A server restart does not end a run a runner process holds: kill -9 the server while the agent
// prints, start it again on the same data and port, and the run ends with the agent's own outcome
// and every line of its log exactly once, in order (the runner kept the batches and delivered them).
// With a buffer too small for the outage, the log says how many entries were dropped, where.

const ADMIN = { ADMIN_USERNAME: "admin", ADMIN_PASSWORD: "engine-admin-password" };
// A lease of 10 s (the product's default is 30): with 5 s, a restarted server on a slow machine
// beside the browser tests answered the runner's first heartbeat after the lease had run out, and
// the run ended "lost" (seen twice in clean runs). What this file tests is the restart, not the lease.
const ENV = { ...ADMIN, RUNNER_EMBEDDED: "false", AGENT_COMMAND: FIXTURE_AGENT, RUNNER_LEASE_SECONDS: "10" };

let store: Store;
const runners: ChildProcess[] = [];
const servers: Awaited<ReturnType<typeof startServer>>[] = [];
let server: Awaited<ReturnType<typeof startServer>>;
let token: string;
let wsId: string;

beforeAll(async () => {
  store = await newStore("runner-restart");
  server = await startServer({ databaseUrl: store.databaseUrl, dataDir: store.dataDir, label: "restart-a", env: ENV });
  servers.push(server);
  ({ token, wsId } = await workspaceOn({ call: client(server.url) }));
});

afterAll(async () => {
  for (const runner of runners) if (runner.exitCode === null) runner.kill("SIGKILL");
  for (const each of servers) await each.stop();
  await store?.drop();
});

/** A run of `instructions` (`rate N S`) on a runner of its own; the server is killed once the log holds 20 entries, and started again after `downMs`. */
async function runThroughRestart(name: string, instructions: string, runnerEnv: Record<string, string>, downMs: number) {
  const call = client(server.url);
  const registered = await call("POST", "/api/runners", { token, json: { name } });
  const runner = spawnRunner(server.url, registered.body.token, runnerEnv);
  runners.push(runner);
  try {
    return await restartUnder(name, instructions, downMs);
  } finally {
    // Gone before the next case, failed or not, so that case's run goes to its own runner.
    await stopRunner(runner, 15_000);
  }
}

async function restartUnder(name: string, instructions: string, downMs: number) {
  const call = client(server.url);
  const task = await newTask(call, token, wsId, { title: `outlives the server (${name})` });
  const started = await call("POST", `/api/workspaces/${wsId}/tasks/${task.id}/runs`, { token, json: { instructions } });
  expect(started.status).toBe(202);
  const base = `/api/workspaces/${wsId}/executions/${started.body.id}`;
  await eventually(async () => ((await call("GET", base, { token })).body.line_count > 20 ? true : undefined), 60_000, "output");

  server.child.kill("SIGKILL");
  await new Promise((resolve) => server.child.once("exit", resolve));
  await new Promise((resolve) => setTimeout(resolve, downMs));
  const port = Number(new URL(server.url).port);
  server = await startServer({ databaseUrl: store.databaseUrl, dataDir: store.dataDir, label: "restart-b", env: ENV, port });
  servers.push(server);

  const done = await finished(call, token, wsId, started.body.id, 90_000);
  expect(done, JSON.stringify(done)).toMatchObject({ status: "succeeded", exit_code: 0, runner_name: name });
  const entries = [];
  for (let offset = 0; ;) {
    const page = (await call("GET", `${base}/log?offset=${offset}`, { token })).body;
    entries.push(...page.entries);
    if (page.next_offset === offset) break;
    offset = page.next_offset;
  }
  expect(entries.map((e: { seq: number }) => e.seq)).toEqual(entries.map((_: unknown, i: number) => i));
  return entries as { seq: number; type: string; update: Record<string, unknown> }[];
}

const LINE = (n: number) => `rate line ${n} ${"y".repeat(60)}`;

describe("a server restart under a runner", () => {
  it("ends the run with the agent's outcome and a complete log", async () => {
    const entries = await runThroughRestart("survivor", "rate 50 8", {}, 2000);
    const lines = outputLines({ entries });
    expect(lines.length).toBeGreaterThan(100);
    expect(lines).toEqual(lines.map((_, n) => LINE(n)));
    expect(entries.filter((e) => e.type === "error")).toEqual([]);
  }, 180_000);

  it("with a buffer too small for the outage, keeps what fits and says how many entries were dropped where they are missing", async () => {
    // About 20 lines fit in 2,000 characters; the agent prints 100 a second (10 ms ticks) while the
    // server is away for 4 s and its restart, and for 8 s after it answers again: a fixed length
    // once ended before a restart slowed by a busy machine, leaving no line after the gap.
    const entries = await runThroughRestart("small-buffer", "rate-outage 100 8", { RUNNER_LOG_BUFFER_BYTES: "2000" }, 4000);
    const gaps = entries.filter((e) => e.type === "error");
    expect(gaps).toHaveLength(1);
    const dropped = gaps[0].update.dropped as number;
    expect(dropped).toBeGreaterThan(20);
    expect(gaps[0].update.message).toBe(`${dropped} log entries were dropped while the server was unreachable`);
    const at = entries.indexOf(gaps[0]);
    const before = outputLines({ entries: entries.slice(0, at) });
    const after = outputLines({ entries: entries.slice(at + 1) });
    // Every line before the gap, none twice; the gap is exactly the dropped lines; every line after it.
    expect(before).toEqual(before.map((_, n) => LINE(n)));
    expect(after).toEqual(after.map((_, n) => LINE(before.length + dropped + n)));
    expect(after.length).toBeGreaterThan(50);
  }, 180_000);
});
