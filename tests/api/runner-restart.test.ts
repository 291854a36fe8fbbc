import { spawnRunner } from "../helpers/runner-process";
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../scripts/lib/server.mjs";
import { client, eventually, finished, FIXTURE_AGENT, newStore, newTask, outputLines, workspaceOn, type Store } from "../helpers/engine";

// A server restart does not end a run a runner process holds: kill -9 the server while the agent
// prints, start it again on the same data and port, and the run ends with the agent's own outcome
// and every line of its log exactly once, in order (the runner kept the batches and delivered them).

const ADMIN = { ADMIN_USERNAME: "admin", ADMIN_PASSWORD: "engine-admin-password" };
const ENV = { ...ADMIN, RUNNER_EMBEDDED: "false", AGENT_COMMAND: FIXTURE_AGENT, RUNNER_LEASE_SECONDS: "5" };

let store: Store;
let runner: ChildProcess | undefined;
const servers: Awaited<ReturnType<typeof startServer>>[] = [];

beforeAll(async () => {
  store = await newStore("runner-restart");
});

afterAll(async () => {
  if (runner?.exitCode === null) runner.kill("SIGKILL");
  for (const server of servers) await server.stop();
  await store?.drop();
});

describe("a server restart under a runner", () => {
  it("ends the run with the agent's outcome and a complete log", async () => {
    const first = await startServer({ databaseUrl: store.databaseUrl, dataDir: store.dataDir, label: "restart-a", env: ENV });
    servers.push(first);
    const call = client(first.url);
    const { token, wsId } = await workspaceOn({ call });
    const registered = await call("POST", "/api/runners", { token, json: { name: "survivor" } });
    runner = spawnRunner(first.url, registered.body.token);
    const task = await newTask(call, token, wsId, { title: "outlives the server" });
    const started = await call("POST", `/api/workspaces/${wsId}/tasks/${task.id}/runs`, { token, json: { instructions: "rate 50 8" } });
    expect(started.status).toBe(202);
    const base = `/api/workspaces/${wsId}/executions/${started.body.id}`;
    await eventually(async () => ((await call("GET", base, { token })).body.line_count > 20 ? true : undefined), 60_000, "output");

    first.child.kill("SIGKILL");
    await new Promise((resolve) => first.child.once("exit", resolve));
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const port = Number(new URL(first.url).port);
    const second = await startServer({ databaseUrl: store.databaseUrl, dataDir: store.dataDir, label: "restart-b", env: ENV, port });
    servers.push(second);

    const done = await finished(call, token, wsId, started.body.id, 90_000);
    expect(done).toMatchObject({ status: "succeeded", exit_code: 0, runner_name: "survivor" });
    const entries = [];
    for (let offset = 0; ;) {
      const page = (await call("GET", `${base}/log?offset=${offset}`, { token })).body;
      entries.push(...page.entries);
      if (page.next_offset === offset) break;
      offset = page.next_offset;
    }
    expect(entries.map((e: { seq: number }) => e.seq)).toEqual(entries.map((_: unknown, i: number) => i));
    const lines = outputLines({ entries });
    expect(lines.length).toBeGreaterThan(100);
    expect(lines).toEqual(lines.map((_, n) => `rate line ${n} ${"y".repeat(60)}`));
  }, 180_000);
});
