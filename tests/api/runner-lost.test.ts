import { spawnRunner } from "../helpers/runner-process";
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  engineServer,
  eventually,
  finished,
  FIXTURE_AGENT,
  newStore,
  newTask,
  workspaceOn,
  type EngineServer,
  type Store,
} from "../helpers/engine";

// Two runner processes share the queue, each up to its capacity; kill -9 one of them mid-run and
// its runs end failed when their lease runs out, with the reason in words, while the other's go on.

const LEASE = 5;

let store: Store;
let server: EngineServer;
let token: string;
let wsId: string;
const runners: ChildProcess[] = [];
const agents: number[] = [];

beforeAll(async () => {
  store = await newStore("runner-lost");
  server = await engineServer(store, { RUNNER_EMBEDDED: "false", AGENT_COMMAND: FIXTURE_AGENT, RUNNER_LEASE_SECONDS: String(LEASE) });
  ({ token, wsId } = await workspaceOn(server));
});

afterAll(async () => {
  for (const child of runners) if (child.exitCode === null) child.kill("SIGKILL");
  for (const pid of agents) {
    try {
      process.kill(-pid, "SIGKILL"); // the killed runner's agents live on in their own process groups
    } catch {
      // already gone
    }
  }
  await server?.stop();
  await store?.drop();
});

async function startRunner(name: string) {
  const created = await server.call("POST", "/api/runners", { token, json: { name, capacity: 2 } });
  const child = spawnRunner(server.url, created.body.token);
  runners.push(child);
  return child;
}

describe("two runners", () => {
  it("share the queue; a runner killed mid-run loses only its own runs, failed in words", async () => {
    const alpha = await startRunner("alpha");
    await startRunner("beta");
    const started: string[] = [];
    for (let i = 0; i < 4; i++) {
      const task = await newTask(server.call, token, wsId, { title: `shared ${i}` });
      const run = await server.call("POST", `/api/workspaces/${wsId}/tasks/${task.id}/runs`, { token, json: { instructions: "sleep 8" } });
      expect(run.status).toBe(202);
      started.push(run.body.id as string);
    }
    const running = await eventually(
      async () => {
        const rows = await Promise.all(
          started.map(async (id) => (await server.call("GET", `/api/workspaces/${wsId}/executions/${id}`, { token })).body),
        );
        return rows.every((row) => row.runner_pid) ? rows : undefined;
      },
      90_000,
      "all four runs to start",
    );
    agents.push(...running.map((row) => row.runner_pid as number));
    expect(running.map((row) => row.runner_name).sort()).toEqual(["alpha", "alpha", "beta", "beta"]);

    alpha.kill("SIGKILL");
    const outcomes = await Promise.all(started.map((id) => finished(server.call, token, wsId, id, (LEASE + 10) * 1000 + 30_000)));
    for (const outcome of outcomes) {
      if (outcome.runner_name === "alpha") {
        expect(outcome).toMatchObject({ status: "failed", error_message: `the runner alpha was lost: no heartbeat for ${LEASE} s` });
      } else {
        expect(outcome).toMatchObject({ status: "succeeded", exit_code: 0 });
      }
    }
  }, 180_000);
});
