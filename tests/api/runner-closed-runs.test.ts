import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/engine";
import { dedicatedRunner, dedicatedRunnerWorkspace, type ProtocolRunner } from "../helpers/claims";

// Issue #35, "Ended runs are closed": once a run has ended, its runner's calls answer 409 in words
// (log entries, facts, the worktree, permission questions, a credential, the diff and the bundle),
// but for the wind-down of a run the server ended (a cancel): its log entries, diff and bundle until
// the runner reports its finish. The protocol spoken by hand, on the shared server, by dedicated
// runners only this file's workspace chose (one per test; each test chooses its own).

let setup: Awaited<ReturnType<typeof dedicatedRunnerWorkspace>>;
let server: typeof setup.server;
let runs: typeof setup.ws;

beforeAll(async () => {
  setup = await dedicatedRunnerWorkspace("closed-1");
  ({ server, ws: runs } = setup);
});

const extra: ProtocolRunner[] = [];
afterAll(async () => {
  for (const runner of [setup.runner, ...extra]) await runner.remove();
});

/** The test's runner: the workspace's only choice from now on. */
async function runnerFor(name: string, options: { capacity?: number } = {}) {
  if (name === "closed-1") return setup.runner;
  const runner = await dedicatedRunner(server, runs.token, [runs.wsId], name, options);
  extra.push(runner);
  return runner;
}

const entry = (text: string) => ({ type: "output", update: { stream: "stdout", text } });
const diff = (commit: string) => ({
  branch: "tb/1-x",
  base: "main",
  base_sha: "a".repeat(40),
  commit_sha: commit,
  files_changed: 0,
  lines_added: 0,
  lines_removed: 0,
  truncated: false,
  files: [],
  patch: "",
});

/** A run queued and claimed by `runner`, with one log entry stored. */
async function held(runner: ProtocolRunner, title: string) {
  const { taskId, executionId } = await runs.queue(title);
  expect(await runner.claim()).toBe(executionId);
  const log = await runner.call("POST", "/log", { batches: [{ execution_id: executionId, first_seq: 0, entries: [entry("before")] }] });
  expect(log.body.results[0]).toMatchObject({ next_seq: 1, error: null });
  return { taskId, executionId };
}

async function bundle(runner: ProtocolRunner, executionId: string) {
  const response = await fetch(`${server.url}/api/runner/executions/${executionId}/bundle`, {
    method: "PUT",
    headers: { authorization: `Bearer ${runner.token}`, "content-type": "application/octet-stream" },
    body: new Uint8Array([1, 2, 3]),
  });
  return { status: response.status, body: (await response.json()) as { detail: string } };
}

const logLines = async (executionId: string) =>
  (await server.call("GET", `/api/workspaces/${runs.wsId}/executions/${executionId}/log`, { token: runs.token })).body.entries.length;

describe("a run that has ended is closed to its runner", () => {
  it("refuses every call on a succeeded run with 409 in words, and a finish sent again changes nothing", async () => {
    const runner = await runnerFor("closed-1");
    const { executionId } = await held(runner, "closed after success");
    const finished = await runner.call("POST", `/executions/${executionId}/finish`, { status: "succeeded", report: "the report" });
    expect(finished.status).toBe(204);

    const ended = "The run has ended (succeeded)";
    const reported = `${ended} and its runner reported its outcome`;
    const log = await runner.call("POST", "/log", { batches: [{ execution_id: executionId, first_seq: 1, entries: [entry("after")] }] });
    expect(log).toMatchObject({ status: 409, body: { detail: `${reported}: log entries are taken only before that` } });
    const refusals = {
      facts: await runner.call("PATCH", `/executions/${executionId}`, { runner_pid: 4242 }),
      worktree: await runner.call("PATCH", `/executions/${executionId}`, { worktree: { path: "/tmp/anything", branch: "x" } }),
      question: await runner.call("POST", `/executions/${executionId}/questions`, {
        tool_call: { title: "rm -rf /" },
        options: [{ optionId: "yes", name: "Yes", kind: "allow_once" }],
      }),
      diff: await runner.call("PUT", `/executions/${executionId}/diff`, diff("b".repeat(40))),
      bundle: await bundle(runner, executionId),
      remote: await runner.call("POST", `/executions/${executionId}/remote`, {}),
    };
    for (const [call, answer] of Object.entries(refusals)) {
      expect({ call, status: answer.status }).toEqual({ call, status: 409 });
      expect(typeof answer.body.detail).toBe("string");
    }
    expect(refusals.facts.body.detail).toBe(`${ended}: its runner can no longer add to it or change it`);
    expect(refusals.question.body.detail).toBe(`${ended}: its runner can no longer add to it or change it`);
    expect(refusals.diff.body.detail).toBe(`${reported}: the diff is taken only before that`);
    expect(refusals.bundle.body.detail).toBe(`${reported}: the bundle is taken only before that`);

    const again = await runner.call("POST", `/executions/${executionId}/finish`, { status: "failed", report: "a rewritten report" });
    expect(again.status).toBe(204);
    expect(await runs.execution(executionId)).toMatchObject({ status: "succeeded", report: "the report", runner_pid: null });
    expect(await logLines(executionId)).toBe(1);
  });

  it("stores a log request's entries for a live run and refuses the ended run's in its result", async () => {
    const runner = await runnerFor("closed-2", { capacity: 2 });
    const done = await held(runner, "ended one");
    const live = await held(runner, "live one");
    await runner.finish(done.executionId);

    const answer = await runner.call("POST", "/log", {
      batches: [
        { execution_id: done.executionId, first_seq: 1, entries: [entry("late")] },
        { execution_id: live.executionId, first_seq: 1, entries: [entry("on time")] },
      ],
    });
    expect(answer.status).toBe(200);
    expect(answer.body.results).toEqual([
      {
        execution_id: done.executionId,
        next_seq: null,
        error: {
          status: 409,
          detail: "The run has ended (succeeded) and its runner reported its outcome: log entries are taken only before that",
        },
      },
      { execution_id: live.executionId, next_seq: 2, error: null },
    ]);
    expect(await logLines(done.executionId)).toBe(1);
    expect(await logLines(live.executionId)).toBe(2);
    await runner.finish(live.executionId);
  });

  it("takes the log and diff of a run a person cancelled until its runner reports the finish, nothing else", async () => {
    const runner = await runnerFor("closed-3");
    const { executionId } = await held(runner, "cancelled while concluding");
    // The cancel's answer waits for the runner to let go: it is read after the finish below.
    const cancelled = server.call("POST", `/api/workspaces/${runs.wsId}/executions/${executionId}/cancel`, { token: runs.token });
    const ended = async () => ((await runs.execution(executionId)).status === "cancelled" ? true : undefined);
    await eventually(ended, 10_000, "the run cancelled");

    expect((await runner.call("PUT", `/executions/${executionId}/diff`, diff("c".repeat(40)))).status).toBe(204);
    const windDown = await runner.call("POST", "/log", {
      batches: [{ execution_id: executionId, first_seq: 1, entries: [entry("committed the agent's changes")] }],
    });
    expect(windDown.body.results[0]).toMatchObject({ next_seq: 2, error: null });
    const facts = await runner.call("PATCH", `/executions/${executionId}`, { runner_pid: 4242 });
    expect(facts).toMatchObject({
      status: 409,
      body: { detail: "The run has ended (cancelled): its runner can no longer add to it or change it" },
    });

    expect((await runner.call("POST", `/executions/${executionId}/finish`, { status: "cancelled", report: "stopped" })).status).toBe(204);
    expect((await cancelled).status).toBe(200);
    const late = await runner.call("PUT", `/executions/${executionId}/diff`, diff("d".repeat(40)));
    expect(late).toMatchObject({
      status: 409,
      body: { detail: "The run has ended (cancelled) and its runner reported its outcome: the diff is taken only before that" },
    });
    const lateLog = await runner.call("POST", "/log", { batches: [{ execution_id: executionId, first_seq: 2, entries: [entry("late")] }] });
    expect(lateLog.status).toBe(409);
    expect(await logLines(executionId)).toBe(2);
    expect(await runs.execution(executionId)).toMatchObject({ status: "cancelled", report: "stopped" });
  });
});
