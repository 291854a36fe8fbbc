import { QueryClient } from "@tanstack/react-query";
import { beforeEach, describe, expect, it } from "vitest";
import { cacheExecution, executionQuery, laterExecution } from "@/lib/client/executions";
import { executionKeys } from "@/lib/client/query-keys";
import type { Execution } from "@/lib/client/types";

// An execution's record reaches the cache from reads, write answers and events, in any order: the
// later state must stay. Seen in the browser tests as a quick run whose view said "running" for good.

const WS = "ws-1";

function record(status: Execution["status"], lineCount: number): Execution {
  return {
    id: "ex-1",
    workspace_id: WS,
    task_id: "t-1",
    task_run_id: "r-1",
    session_name: "s",
    status,
    runner_pid: null,
    runner_id: null,
    runner_name: null,
    waiting_for_runner: null,
    exit_code: status === "failed" ? 1 : null,
    error_message: null,
    line_count: lineCount,
    last_activity_at: null,
    started_at: "2026-12-05T00:00:00.000Z",
    finished_at: status === "failed" ? "2026-12-05T00:00:01.000Z" : null,
    duration: null,
    keep_status: false,
    report: null,
    agent_id: null,
    acp_session_id: null,
    acp_session_loaded: null,
  } as Execution;
}

const cached = () => client.getQueryData<Execution>(executionKeys.detail(WS, "ex-1"));

let client: QueryClient;
beforeEach(() => {
  client = new QueryClient();
});

describe("an execution in the cache", () => {
  it("stays ended when the answer of the POST that started it comes after its end's event", () => {
    cacheExecution(client, WS, record("failed", 3));
    cacheExecution(client, WS, record("running", 0));
    expect(cached()).toMatchObject({ status: "failed", line_count: 3 });
  });

  it("stays ended when a read that began before the end's event answers after it", async () => {
    let answer!: (execution: Execution) => void;
    const read = client.fetchQuery({
      ...executionQuery(WS, "ex-1"),
      queryFn: () => new Promise<Execution>((resolve) => (answer = resolve)),
    });
    await Promise.resolve();
    cacheExecution(client, WS, record("failed", 3));
    answer(record("running", 1));
    await read;
    expect(cached()).toMatchObject({ status: "failed", line_count: 3 });
  });

  it("takes an end even when the end counts fewer lines than a live record did", () => {
    cacheExecution(client, WS, record("running", 5));
    cacheExecution(client, WS, record("failed", 4));
    expect(cached()).toMatchObject({ status: "failed", line_count: 4 });
  });

  it("keeps the longer log between two live records, and follows it as it grows", () => {
    cacheExecution(client, WS, record("running", 5));
    cacheExecution(client, WS, record("running", 3));
    expect(cached()?.line_count).toBe(5);
    cacheExecution(client, WS, record("waiting_for_input", 7));
    expect(cached()).toMatchObject({ status: "waiting_for_input", line_count: 7 });
  });

  it("keeps the same object when nothing changed, so the view does not draw again", () => {
    const known = record("running", 2);
    expect(laterExecution(known, record("running", 2))).toBe(known);
    expect(laterExecution(undefined, known)).toBe(known);
  });
});
