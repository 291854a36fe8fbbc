import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStream } from "../helpers/sse";
import { engineServer, eventually, newStore, newTask, workspaceOn, type EngineServer, type Store } from "../helpers/engine";

// The runner protocol (/api/runner/…, docs/runners.md "Protocol") spoken by hand, against a server
// that runs no agent itself (RUNNER_EMBEDDED=false): claims with a long poll, heartbeats and
// cancel, log batches stored exactly once, permission questions, the outcome, and a lost lease.

let store: Store;
let server: EngineServer;
let token: string;
let wsId: string;
const CLAIM = { version: "test-1", sandbox: "bubblewrap", free: 1, wait_seconds: 0 };

beforeAll(async () => {
  store = await newStore("runner-protocol");
  server = await engineServer(store, { RUNNER_EMBEDDED: "false", RUNNER_LEASE_SECONDS: "3" });
  ({ token, wsId } = await workspaceOn(server));
});

afterAll(async () => {
  await server?.stop();
  await store?.drop();
});

async function register(name: string, capacity = 2) {
  const created = await server.call("POST", "/api/runners", { token, json: { name, capacity } });
  expect(created.status).toBe(201);
  const runnerToken = created.body.token as string;
  return {
    id: created.body.id as string,
    call: (method: string, path: string, json?: unknown) => server.call(method, `/api/runner${path}`, { token: runnerToken, json }),
  };
}

async function queued(title: string) {
  const task = await newTask(server.call, token, wsId, { title });
  const started = await server.call("POST", `/api/workspaces/${wsId}/tasks/${task.id}/runs`, { token });
  expect(started.status).toBe(202);
  // (A claim already waiting may take it before the answer: "running" then.)
  expect(["queued", "running"]).toContain(started.body.status);
  return { task, executionId: started.body.id as string };
}

const execution = async (id: string) => (await server.call("GET", `/api/workspaces/${wsId}/executions/${id}`, { token })).body;

/** Claims until it gets `executionId` (earlier tests' runs may still be queued). */
async function claimed(runner: Awaited<ReturnType<typeof register>>, executionId: string) {
  const answer = await runner.call("POST", "/claim", CLAIM);
  expect(answer.status).toBe(200);
  expect(answer.body.job?.execution_id).toBe(executionId);
  return answer.body.job;
}

describe("the runner protocol", () => {
  it("hands out a queued run as a job with its own credentials, and names the runner on the execution", async () => {
    const runner = await register("alpha");
    const { task, executionId } = await queued("protocol job");
    expect(await execution(executionId)).toMatchObject({ status: "queued", runner_id: null, runner_name: null });
    const job = await claimed(runner, executionId);
    expect(job).toMatchObject({
      execution_id: executionId,
      workspace_id: wsId,
      task: { id: task.id, title: "protocol job", number: expect.any(Number) },
      instructions: expect.stringContaining("protocol job"),
      token: expect.stringMatching(/^tbg_/),
      mcp_url: expect.stringMatching(/\/api\/mcp$/),
      lease_seconds: 3,
      repository: null,
      env: expect.objectContaining({ TASKBOARD_EXECUTION_ID: executionId, TASKBOARD_API_TOKEN: job.token }),
    });
    expect(await execution(executionId)).toMatchObject({ status: "running", runner_id: runner.id, runner_name: "alpha" });
    // The agent's token acts in its workspace and nowhere in the protocol.
    expect((await server.call("GET", `/api/workspaces/${wsId}/tasks/${task.id}`, { token: job.token })).status).toBe(200);
    expect((await server.call("POST", "/api/runner/heartbeat", { token: job.token, json: { executions: [] } })).status).toBe(401);
    // No room: a runner that says it has no free slot gets nothing.
    await queued("protocol no room");
    expect((await runner.call("POST", "/claim", { ...CLAIM, free: 0 })).body).toEqual({ job: null, refused: null });
    // Another runner cannot touch this run.
    const other = await register("beta");
    expect((await other.call("PATCH", `/executions/${executionId}`, { runner_pid: 4242 })).status).toBe(404);
    await runner.call("POST", `/executions/${executionId}/finish`, { status: "succeeded" });
    await other.call("POST", "/claim", CLAIM).then(async (answer) => {
      await other.call("POST", `/executions/${answer.body.job.execution_id}/finish`, { status: "succeeded" });
    });
  });

  it("wakes a waiting claim as soon as a run is queued", async () => {
    const runner = await register("waiter");
    const waiting = runner.call("POST", "/claim", { ...CLAIM, wait_seconds: 20 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const { executionId } = await queued("protocol long poll");
    const answer = await waiting;
    expect(answer.body.job.execution_id).toBe(executionId);
    await runner.call("POST", `/executions/${executionId}/finish`, { status: "succeeded" });
  });

  it("stores each log entry exactly once and in order, however often a batch is sent", async () => {
    const runner = await register("logger");
    const { executionId } = await queued("protocol log");
    await claimed(runner, executionId);
    const entry = (text: string) => ({ type: "output", update: { stream: "stdout", text } });
    const send = (first_seq: number, texts: string[]) =>
      runner.call("POST", "/log", { batches: [{ execution_id: executionId, first_seq, entries: texts.map(entry) }] });
    const stored = (next_seq: number) => ({ results: [{ execution_id: executionId, next_seq, error: null }] });
    expect((await send(0, ["a", "b", "c"])).body).toEqual(stored(3));
    expect((await send(0, ["a", "b", "c"])).body).toEqual(stored(3));
    expect((await send(2, ["c", "d", "e"])).body).toEqual(stored(5));
    const gap = await send(9, ["z"]);
    expect(gap.status).toBe(200);
    expect(gap.body.results[0]).toEqual({
      execution_id: executionId,
      next_seq: null,
      error: { status: 409, detail: "The log holds 5 entries: the next batch must start at seq 5" },
    });
    const log = (await server.call("GET", `/api/workspaces/${wsId}/executions/${executionId}/log`, { token })).body;
    expect(log.entries.map((e: { seq: number; update: { text: string } }) => [e.seq, e.update.text])).toEqual([
      [0, "a"],
      [1, "b"],
      [2, "c"],
      [3, "d"],
      [4, "e"],
    ]);
    expect((await runner.call("POST", "/log", { batches: [{ execution_id: executionId, first_seq: 0, entries: [] }] })).status).toBe(422);
    expect((await runner.call("POST", "/log", { batches: [] })).status).toBe(422);
    await runner.call("POST", `/executions/${executionId}/finish`, { status: "succeeded" });
  });

  it("stores an oversized entry cut to its start and marked with how big it was, the same in the log and in the live event", async () => {
    const runner = await register("odd-entries");
    const { executionId } = await queued("protocol log, odd entries");
    await claimed(runner, executionId);
    const stream = await openStream(`${server.url}/api/workspaces/${wsId}/events?after=0`, { authorization: `Bearer ${token}` });
    const big = "x".repeat(300 * 1024);
    const answer = await runner.call("POST", "/log", {
      batches: [
        {
          execution_id: executionId,
          first_seq: 0,
          entries: [
            { type: "output", update: { stream: "stdout", text: "before" } },
            { type: "output", update: { stream: "stdout", text: big } },
            { type: "output", update: { stream: "stdout", text: "plain" } },
          ],
        },
      ],
    });
    expect(answer.body).toEqual({ results: [{ execution_id: executionId, next_seq: 3, error: null }] });
    const expected = [
      { stream: "stdout", text: "before" },
      { stream: "stdout", text: big.slice(0, 32 * 1024), truncated: true, chars: JSON.stringify({ stream: "stdout", text: big }).length },
      { stream: "stdout", text: "plain" },
    ];
    const log = (await server.call("GET", `/api/workspaces/${wsId}/executions/${executionId}/log`, { token })).body;
    expect(log.entries.map((e: { update: unknown }) => e.update)).toEqual(expected);
    const seen = await stream.until((message) => message.event === "execution.log" && JSON.parse(message.data!).data.id === executionId);
    stream.close();
    const event = JSON.parse(seen.at(-1)!.data!);
    expect(event.data.log).toMatchObject({ offset: 0 });
    expect(event.data.log.entries.map((e: { update: unknown }) => e.update)).toEqual(expected);
    await runner.call("POST", `/executions/${executionId}/finish`, { status: "succeeded" });
  });

  it("stores several runs' batches in one request; a batch refused (another runner's run) does not stop the others", async () => {
    const runner = await register("two-runs");
    const other = await register("other-runner");
    const mine = await queued("protocol log, mine 1");
    await claimed(runner, mine.executionId);
    const second = await queued("protocol log, mine 2");
    await claimed(runner, second.executionId);
    const theirs = await queued("protocol log, theirs");
    await claimed(other, theirs.executionId);
    const entries = (texts: string[]) => texts.map((text) => ({ type: "output", update: { stream: "stdout", text } }));
    const answer = await runner.call("POST", "/log", {
      batches: [
        { execution_id: mine.executionId, first_seq: 0, entries: entries(["1a", "1b"]) },
        { execution_id: theirs.executionId, first_seq: 0, entries: entries(["not mine"]) },
        { execution_id: second.executionId, first_seq: 0, entries: entries(["2a"]) },
      ],
    });
    expect(answer.status).toBe(200);
    expect(answer.body.results).toEqual([
      { execution_id: mine.executionId, next_seq: 2, error: null },
      { execution_id: theirs.executionId, next_seq: null, error: { status: 404, detail: "Execution not found" } },
      { execution_id: second.executionId, next_seq: 1, error: null },
    ]);
    const texts = async (id: string) =>
      (await server.call("GET", `/api/workspaces/${wsId}/executions/${id}/log`, { token })).body.entries.map(
        (e: { update: { text: string } }) => e.update.text,
      );
    expect(await texts(mine.executionId)).toEqual(["1a", "1b"]);
    expect(await texts(second.executionId)).toEqual(["2a"]);
    expect(await texts(theirs.executionId)).toEqual([]);
    expect((await execution(mine.executionId)).line_count).toBe(2);
    for (const [who, id] of [
      [runner, mine.executionId],
      [runner, second.executionId],
      [other, theirs.executionId],
    ] as const)
      await who.call("POST", `/executions/${id}/finish`, { status: "succeeded" });
  });

  it("tells the runner through its heartbeat that a run was cancelled", async () => {
    const runner = await register("canceller");
    const { executionId } = await queued("protocol cancel");
    await claimed(runner, executionId);
    expect((await runner.call("PATCH", `/executions/${executionId}`, { runner_pid: 4242 })).status).toBe(204);
    expect((await execution(executionId)).runner_pid).toBe(4242);
    expect((await runner.call("POST", "/heartbeat", { executions: [executionId] })).body.executions).toEqual([
      { id: executionId, cancel: false, reason: null },
    ]);
    // The cancel answers once the runner has reported the run stopped: it is sent first, and the
    // runner hears of it with its next heartbeat.
    const cancel = server.call("POST", `/api/workspaces/${wsId}/executions/${executionId}/cancel`, { token });
    let beat = await runner.call("POST", "/heartbeat", { executions: [executionId] });
    for (let i = 0; i < 50 && !beat.body.executions[0].cancel; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      beat = await runner.call("POST", "/heartbeat", { executions: [executionId] });
    }
    expect(beat.body.executions[0]).toMatchObject({ id: executionId, cancel: true, reason: expect.stringContaining("cancelled") });
    // The runner's outcome after a cancel keeps the cancel's verdict and adds what only it knew.
    await runner.call("POST", `/executions/${executionId}/finish`, { status: "cancelled", exit_code: 143, report: "stopped" });
    const answered = await cancel;
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ status: "cancelled", exit_code: 143 });
    expect(await execution(executionId)).toMatchObject({ status: "cancelled", exit_code: 143, report: "stopped" });
  });

  it("asks a permission question, waits for a person's answer, and records the outcome", async () => {
    const runner = await register("asker");
    const { task, executionId } = await queued("protocol permission");
    await claimed(runner, executionId);
    const beat = setInterval(() => void runner.call("POST", "/heartbeat", { executions: [executionId] }), 500);
    try {
      const asked = await runner.call("POST", `/executions/${executionId}/questions`, {
        tool_call: { title: "Write hello.txt", kind: "edit" },
        options: [
          { optionId: "allow", name: "Allow", kind: "allow_once" },
          { optionId: "reject", name: "Reject", kind: "reject_once" },
        ],
      });
      expect(asked.status).toBe(201);
      const questionId = asked.body.question_id;
      expect(await execution(executionId)).toMatchObject({ status: "waiting_for_input" });
      const path = `/executions/${executionId}/questions/${questionId}`;
      expect((await runner.call("GET", `${path}?wait_seconds=0`)).body).toEqual({ status: "open", option_id: null });
      const waiting = runner.call("GET", `${path}?wait_seconds=20`);
      const answered = await server.call("POST", `/api/workspaces/${wsId}/questions/${questionId}/answer`, {
        token,
        json: { answer: "Allow" },
      });
      expect(answered.status).toBe(200);
      expect((await waiting).body).toEqual({ status: "answered", option_id: "allow" });
      expect((await runner.call("POST", `${path}/settle`)).status).toBe(204);
      expect(await execution(executionId)).toMatchObject({ status: "running" });

      const usage = { input_tokens: 10, output_tokens: 5, total_tokens: 15, cost: null };
      const changes = { commit_sha: "abc123", files_changed: 2, lines_added: 7, lines_removed: 1 };
      const outcome = { status: "succeeded", exit_code: 0, report: "done", usage, changes };
      expect((await runner.call("POST", `/executions/${executionId}/finish`, outcome)).status).toBe(204);
      expect((await runner.call("POST", `/executions/${executionId}/finish`, { ...outcome, status: "failed" })).status).toBe(204);
      expect(await execution(executionId)).toMatchObject({ status: "succeeded", report: "done", exit_code: 0 });
      const runs = (await server.call("GET", `/api/workspaces/${wsId}/tasks/${task.id}/runs`, { token })).body;
      expect(runs[0]).toMatchObject({ status: "succeeded", usage, commit_sha: "abc123", files_changed: 2, lines_added: 7 });
    } finally {
      clearInterval(beat);
    }
  });

  it("fails a run whose runner stops renewing its lease, saying the runner was lost", async () => {
    const runner = await register("vanishing");
    const { executionId } = await queued("protocol lost");
    await claimed(runner, executionId);
    const failed = await eventually(
      async () => {
        const row = await execution(executionId);
        return row.status === "failed" ? row : undefined;
      },
      30_000,
      "the lease to expire",
    );
    expect(failed.error_message).toBe("the runner vanishing was lost: no heartbeat for 3 s");
    expect((await runner.call("POST", "/heartbeat", { executions: [executionId] })).body.executions[0]).toMatchObject({ cancel: true });
  });
});
