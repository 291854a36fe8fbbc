import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentWorkspace, finished, newTask, outputLines, processAlive } from "../helpers/engine";
import { runsApi, runsWorkspace } from "../helpers/runs";

// Manual runs with real child processes: timeouts, cancel, one at a time per task, the concurrency
// limit and bad input, on the shared server in a workspace served only by a runner process of this
// file's own (tests/helpers/runs.ts): its short timeout and two runs at a time are what they test.
// And a large log, in a workspace of its own that the shared server's runner serves.

let owned: Awaited<ReturnType<typeof runsWorkspace>>;
let server: typeof owned.server;
let token: string;
let wsId: string;

beforeAll(async () => {
  // Long enough for a sandboxed start (bubblewrap, relays) and Node on a busy machine: a "succeed"
  // run must not time out. The runner's own limit, shorter than the server's (docs/configuration.md).
  owned = await runsWorkspace("run-control", { AGENT_TIMEOUT_SECONDS: "6", AGENT_MAX_CONCURRENT: "2" });
  ({ server, token, wsId } = owned);
}, 90_000); // a runner process on a busy machine

const { base, run, task, getLog, cancelLeft } = runsApi(() => ({ server, token, wsId }));

afterAll(async () => {
  if (owned) await cancelLeft();
  await owned?.stop();
});

describe("controlling runs", () => {
  it("kills the process group at the timeout and records timed_out", async () => {
    const t = await task();
    const started = await run(t.id, "sleep 30");
    expect(started.body.status).toBe("running");
    const done = await finished(server.call, token, wsId, started.body.id);
    expect(done.status).toBe("timed_out");
    expect(done.error_message).toBe("timed out after 6 s; the process group was killed");
    expect(processAlive(started.body.runner_pid)).toBe(false);
    const runs = await server.call("GET", `${base()}/tasks/${t.id}/runs`, { token });
    expect(runs.body[0]).toMatchObject({ status: "timed_out", error_message: done.error_message });
  });

  it("cancels a running execution: SIGTERM to its group, status cancelled, and only once", async () => {
    const t = await task();
    const started = await run(t.id, "sleep 30");
    const cancelled = await server.call("POST", `${base()}/executions/${started.body.id}/cancel`, { token });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: "cancelled", error_message: `cancelled by ${owned.username}` });
    expect(cancelled.body.finished_at).not.toBeNull();
    expect(processAlive(started.body.runner_pid)).toBe(false);
    const again = await server.call("POST", `${base()}/executions/${started.body.id}/cancel`, { token });
    expect(again.status).toBe(409);
    const runs = await server.call("GET", `${base()}/tasks/${t.id}/runs`, { token });
    expect(runs.body[0].status).toBe("cancelled");
  });

  it("allows one running execution per task (409 for a second)", async () => {
    const t = await task();
    const first = await run(t.id, "sleep 30");
    expect(first.status).toBe(202);
    const second = await run(t.id, "succeed");
    expect(second.status).toBe(409);
    expect(second.body).toEqual({ detail: "An execution of this task is already running" });
    await server.call("POST", `${base()}/executions/${first.body.id}/cancel`, { token });
    const third = await run(t.id, "succeed");
    expect(third.status).toBe(202);
    await finished(server.call, token, wsId, third.body.id);
  });

  it("holds executions beyond AGENT_MAX_CONCURRENT queued until a slot frees", async () => {
    const tasks = await Promise.all([task(), task(), task()]);
    const a = await run(tasks[0].id, "sleep 30");
    const b = await run(tasks[1].id, "sleep 30");
    const c = await run(tasks[2].id, "succeed");
    expect([a.body.status, b.body.status]).toEqual(["running", "running"]);
    expect(c.status).toBe(202);
    expect(c.body).toMatchObject({ status: "queued", runner_pid: null });
    const stillQueued = await server.call("GET", `${base()}/executions/${c.body.id}`, { token });
    expect(stillQueued.body.status).toBe("queued");
    const runs = await server.call("GET", `${base()}/tasks/${tasks[2].id}/runs`, { token });
    expect(runs.body[0].status).toBe("queued");

    await server.call("POST", `${base()}/executions/${a.body.id}/cancel`, { token });
    const done = await finished(server.call, token, wsId, c.body.id);
    expect(done.status).toBe("succeeded");
    await server.call("POST", `${base()}/executions/${b.body.id}/cancel`, { token });
  });

  it("cancels a queued execution without starting it", async () => {
    const tasks = await Promise.all([task(), task(), task()]);
    const a = await run(tasks[0].id, "sleep 30");
    const b = await run(tasks[1].id, "sleep 30");
    const c = await run(tasks[2].id, "succeed");
    expect(c.body.status).toBe("queued");
    const cancelled = await server.call("POST", `${base()}/executions/${c.body.id}/cancel`, { token });
    expect(cancelled.body).toMatchObject({ status: "cancelled", runner_pid: null, duration: null });
    for (const e of [a, b]) await server.call("POST", `${base()}/executions/${e.body.id}/cancel`, { token });
  });

  it("answers 404 for unknown tasks and executions and 422 for bad input", async () => {
    const t = await task();
    expect((await run("nope", "succeed")).status).toBe(404);
    expect((await server.call("GET", `${base()}/tasks/nope/runs`, { token })).body).toEqual({ detail: "Task not found" });
    expect((await server.call("GET", `${base()}/executions/nope`, { token })).body).toEqual({ detail: "Execution not found" });
    expect((await server.call("POST", `${base()}/executions/nope/cancel`, { token })).status).toBe(404);
    expect((await getLog("nope")).status).toBe(404);
    const bad = await server.call("POST", `${base()}/tasks/${t.id}/runs`, { token, json: { instructions: 5 } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ loc: ["body", "instructions"], type: "string_type" });
    const unknownAgent = await server.call("POST", `${base()}/tasks/${t.id}/runs`, { token, json: { agent_id: "nope" } });
    expect(unknownAgent).toMatchObject({ status: 404, body: { detail: "Agent not found" } });
    const badComment = await server.call("POST", `${base()}/tasks/${t.id}/runs`, {
      token,
      json: { comments: [{ path: "a.ts", line: 0, body: "x" }] },
    });
    expect(badComment.status).toBe(422);
    expect(badComment.body.detail[0]).toMatchObject({ loc: ["body", "comments", 0, "line"] });
    const badOffset = await getLog("any", "?offset=-1");
    expect(badOffset.status).toBe(422);
    expect(badOffset.body.detail[0]).toMatchObject({ loc: ["query", "offset"], type: "greater_than_equal" });
  });
});

// Not on the runner above: its short timeout is for the tests above, and a hundred thousand
// entries take longer than that to store on a loaded machine. The shared server's runner has no
// such timeout; the fixture agent is the workspace's default profile.
describe("a large log", () => {
  let big: Awaited<ReturnType<typeof agentWorkspace>>["server"];
  let bigToken: string;
  let bigWs: string;
  let executionId: string | undefined;

  beforeAll(async () => {
    ({ server: big, token: bigToken, wsId: bigWs } = await agentWorkspace());
  });

  afterAll(async () => {
    // A run the test gave up on would go on holding one of the shared runner's slots.
    if (executionId) await big.call("POST", `/api/workspaces/${bigWs}/executions/${executionId}/cancel`, { token: bigToken });
  });

  it("stores 100,000 lines of output exactly and pages through them", async () => {
    const t = await newTask(big.call, bigToken, bigWs, { title: "big" });
    const started = await big.call("POST", `/api/workspaces/${bigWs}/tasks/${t.id}/runs`, {
      token: bigToken,
      json: { instructions: "lines 100000" },
    });
    executionId = started.body.id;
    const done = await finished(big.call, bigToken, bigWs, started.body.id, 170_000);
    // Entry 0 is the prompt; line n is entry n + 1.
    expect(done).toMatchObject({ status: "succeeded", line_count: 100_001 });
    const page = (query: string) => big.call("GET", `/api/workspaces/${bigWs}/executions/${done.id}/log${query}`, { token: bigToken });
    const tail = await page("?offset=99991&limit=100");
    expect(outputLines(tail.body)).toHaveLength(10);
    expect(outputLines(tail.body)[9]).toBe(`line 99999 ${"x".repeat(40)}`);
    expect(tail.body).toMatchObject({ offset: 99991, next_offset: 100_001, complete: true });
    let offset = 1;
    let expected = 0;
    while (offset < 100_001) {
      const next = await page(`?offset=${offset}&limit=10000`);
      for (const line of outputLines(next.body)) expect(line.startsWith(`line ${expected++} `)).toBe(true);
      offset = next.body.next_offset;
    }
    expect(expected).toBe(100_000);
  }, 240_000);
});
