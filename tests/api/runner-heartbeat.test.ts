import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dedicatedRunnerWorkspace } from "../helpers/claims";

// A runner's heartbeat as a long poll (docs/runners.md, "Heartbeats"): held while none of its runs
// is to stop, answered as soon as one is. Spoken by hand on the shared server, by a dedicated runner
// that only this file's workspace chose. The shared server's lease is 30 s, so it holds a
// heartbeat for up to 10 s.

let setup: Awaited<ReturnType<typeof dedicatedRunnerWorkspace>>;

beforeAll(async () => {
  setup = await dedicatedRunnerWorkspace("heartbeat-1", { capacity: 4 });
});

afterAll(async () => {
  await setup?.runner.remove();
});

/** A run queued and claimed by the file's runner. */
async function held(title: string) {
  const { executionId } = await setup.ws.queue(title);
  expect(await setup.runner.claim()).toBe(executionId);
  return executionId;
}

async function heartbeat(executions: string[], wait_seconds: number) {
  const started = Date.now();
  const answer = await setup.runner.call("POST", "/heartbeat", { executions, wait_seconds });
  expect(answer.status).toBe(200);
  return { body: answer.body, ms: Date.now() - started, statements: Number(answer.headers.get("x-sql-statements")) };
}

const output = (text: string) => ({ type: "output", update: { stream: "stdout", text } });

describe("a held heartbeat", () => {
  it("answers when its wait is over while no run is to stop, and an agent's printing does not make it read again", async () => {
    const id = await held("kept running");
    const quiet = await heartbeat([id], 1);
    expect(quiet.body).toEqual({ executions: [{ id, cancel: false, reason: null }], lease_seconds: 30 });
    // Held, not answered at once (load only makes it later).
    expect(quiet.ms).toBeGreaterThanOrEqual(900);

    // The run's log grows ten times while the next one waits: stream-only events, which wake event
    // streams but not a heartbeat (lib/events/wake.ts, onWorkspaceChanges).
    const busy = heartbeat([id], 2);
    for (let seq = 0; seq < 10; seq++) {
      const log = await setup.runner.call("POST", "/log", {
        batches: [{ execution_id: id, first_seq: seq, entries: [output(`line ${seq}`)] }],
      });
      expect(log.body.results[0]).toMatchObject({ next_seq: seq + 1, error: null });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const printed = await busy;
    expect(printed.body.executions).toEqual([{ id, cancel: false, reason: null }]);
    // Each wake-up would be a read of the runs (ten more statements); a statement or two may differ
    // between two heartbeats (the runner's last_seen_at is written at most once a second).
    expect(printed.statements).toBeLessThanOrEqual(quiet.statements + 2);
    await setup.runner.finish(id);
  });

  it("answers at once, not when its wait is over, when a person cancels one of its runs", async () => {
    const kept = await held("kept while the other is cancelled");
    const doomed = await held("cancelled while its runner's heartbeat waits");
    const beat = heartbeat([kept, doomed], 10);
    // Held by now, so what answers it is the cancel's wake-up, not its first read.
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The cancel answers once the runner has reported the run stopped: only after it heard of it.
    const cancel = setup.server.call("POST", `/api/workspaces/${setup.ws.wsId}/executions/${doomed}/cancel`, { token: setup.token });
    const { body, ms } = await beat;
    expect(body.executions).toEqual([
      { id: kept, cancel: false, reason: null },
      { id: doomed, cancel: true, reason: expect.stringContaining("cancelled by") },
    ]);
    // Its 10 s were far from over: the run's event woke it.
    expect(ms).toBeLessThan(8000);
    await setup.runner.call("POST", `/executions/${doomed}/finish`, { status: "cancelled", exit_code: 143 });
    const answered = await cancel;
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ status: "cancelled", exit_code: 143 });
    await setup.runner.finish(kept);
  });

  it("answers at once for a run that has ended or is not this runner's", async () => {
    const ended = await held("ended before the heartbeat");
    await setup.runner.finish(ended);
    const { body, ms } = await heartbeat([ended, "0199a1b2-0000-7000-8000-000000000000"], 10);
    expect(body.executions).toEqual([
      { id: ended, cancel: true, reason: "the run is succeeded" },
      { id: "0199a1b2-0000-7000-8000-000000000000", cancel: true, reason: "not a run of this runner" },
    ]);
    expect(ms).toBeLessThan(8000);
  });

  it("refuses a wait longer than 25 s or below 0 with a 422", async () => {
    for (const wait_seconds of [26, -1, "5"]) {
      const answer = await setup.runner.call("POST", "/heartbeat", { executions: [], wait_seconds });
      expect(answer.status).toBe(422);
      expect(answer.body.detail[0].loc).toEqual(["body", "wait_seconds"]);
    }
  });
});
