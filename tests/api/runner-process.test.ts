import { spawnRunner } from "../helpers/runner-process";
import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { bubblewrapUsable } from "@/lib/sandbox/mode";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, finished, fixtureAgentWorkspace, newTask, outputLines, processAlive } from "../helpers/engine";
import { dedicatedRunner } from "../helpers/claims";

// The runner process, black-box: registered over the API, started as `npm run runner` does, it runs
// a command agent and an ACP agent (with a permission question answered over the API), passes on a
// cancel, stops cleanly on SIGTERM and stops when its token is deleted. On the shared server: an
// administrator's workspace whose default agent is the fixture, and dedicated runners that only it
// chose, so the server's own runner never takes its runs (docs/testing.md).

const ROOT = path.resolve(import.meta.dirname, "../..");
const FAKE_ACP = path.join(ROOT, "tests/fixtures/fake-acp-agent.mjs");

let server: Awaited<ReturnType<typeof fixtureAgentWorkspace>>["server"];
let token: string;
let wsId: string;
const processes: ChildProcess[] = [];

beforeAll(async () => {
  ({ server, token, wsId } = await fixtureAgentWorkspace());
});

const runnerIds: string[] = [];

afterAll(async () => {
  for (const child of processes) if (child.exitCode === null) child.kill("SIGKILL");
  // The shared server keeps no runner of this file (one deleted by its test answers 404 here).
  for (const id of runnerIds) await server.call("DELETE", `/api/runners/${id}`, { token });
});

async function startRunner(name: string) {
  const created = await dedicatedRunner(server, token, [wsId], name, { capacity: 2 });
  runnerIds.push(created.id);
  const child = spawnRunner(server.url, created.token, { AGENT_KILL_GRACE_SECONDS: "1", RUNNER_CLAIM_WAIT_SECONDS: "2" }, [
    "ignore",
    "pipe",
    "pipe",
  ]);
  processes.push(child);
  const output: string[] = [];
  child.stdout!.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  await eventually(
    async () => {
      const list = await server.call("GET", "/api/runners", { token });
      return list.body.find((r: { id: string; status: string }) => r.id === created.id && r.status === "online");
    },
    60_000,
    `runner ${name} to come online (output: ${output.join("")})`,
  );
  return { id: created.id, child, output, exited };
}

const base = () => `/api/workspaces/${wsId}`;
const start = (taskId: string, json: Record<string, unknown> = {}) =>
  server.call("POST", `${base()}/tasks/${taskId}/runs`, { token, json });

describe("the runner process", () => {
  let runner: Awaited<ReturnType<typeof startRunner>>;
  beforeAll(async () => {
    runner = await startRunner("process-one");
  });

  it("reports its version and sandbox, and runs a command agent", async () => {
    const listed = (await server.call("GET", "/api/runners", { token })).body.find((r: { id: string }) => r.id === runner.id);
    // What it confines agents with, as probed on this machine (bubblewrap and socat installed: bubblewrap).
    expect(listed).toMatchObject({
      status: "online",
      sandbox: bubblewrapUsable().usable ? "bubblewrap" : "none",
      version: expect.any(String),
    });
    const task = await newTask(server.call, token, wsId, { title: "by a runner" });
    const started = await start(task.id, { instructions: "succeed" });
    expect(started.status).toBe(202);
    const done = await finished(server.call, token, wsId, started.body.id, 60_000);
    expect(done).toMatchObject({ status: "succeeded", runner_id: runner.id, runner_name: "process-one", exit_code: 0 });
    expect(done.runner_pid).toEqual(expect.any(Number));
    expect(done.report).toBe(`report for ${task.id} via manual\n`);
    const log = (await server.call("GET", `${base()}/executions/${done.id}/log`, { token })).body;
    expect(outputLines(log)).toEqual(expect.arrayContaining(["working on by a runner", "a line on stderr"]));
    expect(log.entries.map((e: { seq: number }) => e.seq)).toEqual(log.entries.map((_: unknown, i: number) => i));
  });

  it("runs an ACP agent whose permission question is answered over the API", async () => {
    const profile = await server.call("POST", `${base()}/agents`, {
      token,
      json: { name: "Fake ACP", kind: "acp", command: process.execPath, args: [FAKE_ACP] },
    });
    expect(profile.status).toBe(201);
    const task = await newTask(server.call, token, wsId, { title: "acp by a runner" });
    const instructions = ["Edit the notes.", "@fake write NOTES.md hello", "@fake permission", "@fake tokens 1000 200"].join("\n");
    const started = await start(task.id, { instructions, agent_id: profile.body.id });
    const question = await eventually(
      async () => {
        const list = await server.call("GET", `${base()}/questions?task_id=${task.id}&status=open`, { token });
        return list.body.find((q: { execution_id: string }) => q.execution_id === started.body.id);
      },
      60_000,
      "the permission question",
    );
    expect(question.options).toEqual(["Allow once", "Always allow", "Reject"]);
    expect((await server.call("GET", `${base()}/executions/${started.body.id}`, { token })).body.status).toBe("waiting_for_input");
    const answered = await server.call("POST", `${base()}/questions/${question.id}/answer`, { token, json: { answer: "Always allow" } });
    expect(answered.status).toBe(200);
    const done = await finished(server.call, token, wsId, started.body.id, 60_000);
    expect(done).toMatchObject({ status: "succeeded", runner_name: "process-one", acp_session_id: expect.stringMatching(/^fake-/) });
    const log = (await server.call("GET", `${base()}/executions/${done.id}/log`, { token })).body.entries as {
      type: string;
      update: any;
    }[];
    const permissions = log.filter((e) => e.type === "permission");
    expect(permissions.at(-1)!.update.outcome).toMatchObject({ outcome: "selected", name: "Always allow" });
    const runs = (await server.call("GET", `${base()}/tasks/${task.id}/runs`, { token })).body;
    expect(runs[0].usage).toMatchObject({ input_tokens: 1000, output_tokens: 200 });
  });

  it("passes a cancel on to the agent within a heartbeat", async () => {
    const task = await newTask(server.call, token, wsId, { title: "cancelled on a runner" });
    const started = await start(task.id, { instructions: "sleep 60" });
    const running = await eventually(
      async () => {
        const row = (await server.call("GET", `${base()}/executions/${started.body.id}`, { token })).body;
        return row.runner_pid ? row : undefined;
      },
      60_000,
      "the agent to start",
    );
    expect((await server.call("POST", `${base()}/executions/${started.body.id}/cancel`, { token })).body.status).toBe("cancelled");
    await eventually(async () => (processAlive(running.runner_pid) ? undefined : true), 30_000, "the agent to be stopped");
  });

  it("exits 0 on SIGTERM", async () => {
    runner.child.kill("SIGTERM");
    expect(await runner.exited).toBe(0);
  });
});

describe("a deleted runner", () => {
  it("gets 401 on its next call and stops", async () => {
    const runner = await startRunner("process-doomed");
    expect((await server.call("DELETE", `/api/runners/${runner.id}`, { token })).status).toBe(204);
    expect(await runner.exited).toBe(1);
    expect(runner.output.join("")).toContain("refused this runner's token");
  });
});
