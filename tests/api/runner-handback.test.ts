import { spawnRunner } from "../helpers/runner-process";
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { finished, fixtureAgentWorkspace, newTask, outputLines, processAlive, runningAgent } from "../helpers/engine";
import { dedicatedRunner } from "../helpers/claims";

// SIGTERM with a run that outlasts the grace period: the runner stops the agent, hands the run back
// (POST /api/runner/executions/{id}/release) and exits 0; the run is queued again with its log, and
// a second runner takes it and finishes it. Only the runner that holds a run may hand it back. On the
// shared server: the fixture agent's workspace, and dedicated runners that only it chose.

let server: Awaited<ReturnType<typeof fixtureAgentWorkspace>>["server"];
let token: string;
let wsId: string;
const processes: ChildProcess[] = [];
const runnerIds: string[] = [];

beforeAll(async () => {
  ({ server, token, wsId } = await fixtureAgentWorkspace());
});

afterAll(async () => {
  for (const child of processes) if (child.exitCode === null) child.kill("SIGKILL");
  for (const id of runnerIds) await server.call("DELETE", `/api/runners/${id}`, { token });
});

/** A dedicated runner that the workspace chooses alone from now on. */
async function register(name: string) {
  const runner = await dedicatedRunner(server, token, [wsId], name, { capacity: 1 });
  runnerIds.push(runner.id);
  return runner;
}

function start(runner: { token: string }) {
  const env = { RUNNER_GRACE_SECONDS: "1", AGENT_KILL_GRACE_SECONDS: "1", RUNNER_CLAIM_WAIT_SECONDS: "2" };
  const child = spawnRunner(server.url, runner.token, env, ["ignore", "pipe", "pipe"]);
  processes.push(child);
  const output: string[] = [];
  child.stdout!.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output, exited };
}

const release = (runnerToken: string, executionId: string) =>
  fetch(`${server.url}/api/runner/executions/${executionId}/release`, {
    method: "POST",
    headers: { authorization: `Bearer ${runnerToken}`, "content-type": "application/json" },
    body: JSON.stringify({ reason: "testing" }),
  });

describe("SIGTERM on a runner with a long run", () => {
  it("hands the run back after the grace period and exits 0; another runner finishes it", async () => {
    const first = await register("leaving");
    const leaving = start(first);
    const task = await newTask(server.call, token, wsId, { title: "handed over" });
    const { base, row: running } = await runningAgent(
      server.call,
      token,
      wsId,
      task.id,
      "sleep 6",
      `the agent to start on the first runner (${leaving.output.join("")})`,
    );
    expect(running.runner_name).toBe("leaving");

    leaving.child.kill("SIGTERM");
    expect(await leaving.exited).toBe(0);
    expect(processAlive(running.runner_pid)).toBe(false);
    const queued = (await server.call("GET", base, { token })).body;
    expect(queued).toMatchObject({ status: "queued", runner_id: null, runner_name: null });
    const runs = (await server.call("GET", `/api/workspaces/${wsId}/tasks/${task.id}/runs`, { token })).body;
    expect(runs.map((run: { status: string }) => run.status)).toEqual(["queued"]);
    const kept = (await server.call("GET", `${base}/log`, { token })).body;
    expect(outputLines(kept)).toEqual(["sleeping 6 s"]);
    expect(kept.entries.at(-1)).toMatchObject({
      type: "error",
      update: { message: expect.stringContaining("Handed back by the runner leaving"), released_by: "leaving" },
    });

    // Only the runner holding a run may hand it back: nobody holds it now, and the first runner no longer does.
    const second = await register("taking-over");
    expect((await release(second.token, running.id)).status).toBe(404);
    expect((await release(first.token, running.id)).status).toBe(404);

    const takingOver = start(second);
    const done = await finished(server.call, token, wsId, running.id, 90_000);
    expect(done).toMatchObject({ status: "succeeded", exit_code: 0, runner_name: "taking-over" });
    const log = (await server.call("GET", `${base}/log`, { token })).body;
    expect(log.entries.map((e: { seq: number }) => e.seq)).toEqual(log.entries.map((_: unknown, i: number) => i));
    expect(log.entries.map((e: { type: string }) => e.type)).toEqual(["prompt", "output", "error", "prompt", "output", "output"]);
    expect(outputLines(log)).toEqual(["sleeping 6 s", "sleeping 6 s", "woke up"]);
    // The holder is the second runner now: the first one still may not hand it back (the run ended anyway).
    expect((await release(first.token, running.id)).status).toBe(404);
    takingOver.child.kill("SIGTERM");
    expect(await takingOver.exited).toBe(0);
  }, 180_000);
});
