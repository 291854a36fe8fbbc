import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  engineServer,
  finished,
  FIXTURE_AGENT,
  newStore,
  newTask,
  outputLines,
  processAlive,
  workspaceOn,
  type EngineServer,
  type Store,
} from "../helpers/engine";

// Manual runs with real child processes (tests/fixtures/agent.mjs, told what to do by its instructions).

let store: Store;
let server: EngineServer;
let token: string;
let wsId: string;

beforeAll(async () => {
  store = await newStore("runs");
  server = await engineServer(store, {
    AGENT_COMMAND: FIXTURE_AGENT,
    // Long enough for a sandboxed start (bubblewrap, relays) and Node on a busy machine: a "succeed" run must not time out.
    AGENT_TIMEOUT_SECONDS: "6",
    AGENT_KILL_GRACE_SECONDS: "1",
    AGENT_MAX_CONCURRENT: "2",
    AGENT_LOG_FLUSH_MS: "200",
  });
  ({ token, wsId } = await workspaceOn(server));
});

afterAll(async () => {
  await server?.stop();
  await store?.drop();
});

const base = () => `/api/workspaces/${wsId}`;
const run = (taskId: string, instructions?: string) =>
  server.call("POST", `${base()}/tasks/${taskId}/runs`, { token, json: instructions === undefined ? undefined : { instructions } });
const task = (title = "a task") => newTask(server.call, token, wsId, { title });
const getLog = (executionId: string, query = "") => server.call("GET", `${base()}/executions/${executionId}/log${query}`, { token });

describe("manual runs", () => {
  it("runs the agent and records success with its report", async () => {
    const t = await task("report task");
    const started = await run(t.id, "succeed");
    expect(started.status).toBe(202);
    expect(Object.keys(started.body).sort()).toEqual(
      [
        "acp_session_id",
        "acp_session_loaded",
        "agent_id",
        "duration",
        "error_message",
        "exit_code",
        "finished_at",
        "id",
        "keep_status",
        "last_activity_at",
        "silence_after_seconds",
        "line_count",
        "report",
        "runner_id",
        "runner_name",
        "runner_pid",
        "session_name",
        "started_at",
        "status",
        "task_id",
        "task_run_id",
        "workspace_id",
      ].sort(),
    );
    expect(started.body).toMatchObject({ task_id: t.id, workspace_id: wsId, status: "running", keep_status: false, exit_code: null });
    expect(started.body.runner_pid).toBeGreaterThan(0);

    const done = await finished(server.call, token, wsId, started.body.id);
    // The prompt, then the agent's two lines.
    expect(done).toMatchObject({ status: "succeeded", exit_code: 0, error_message: null, line_count: 3, agent_id: null });
    expect(done.report).toBe(`report for ${t.id} via manual\n`);
    expect(done.duration).toBeGreaterThanOrEqual(0);
    expect(done.finished_at).not.toBeNull();
    expect(done.last_activity_at).not.toBeNull();

    const runs = await server.call("GET", `${base()}/tasks/${t.id}/runs`, { token });
    expect(runs.status).toBe(200);
    expect(runs.body).toHaveLength(1);
    expect(runs.body[0]).toMatchObject({
      id: done.task_run_id,
      task_id: t.id,
      attempt_number: 1,
      trigger: "manual",
      status: "succeeded",
      exit_code: 0,
      session_id: done.session_name,
      finished_at: done.finished_at,
      execution_id: done.id,
      agent_id: null,
      agent_name: "AGENT_COMMAND",
      usage: null,
    });
    const log = await getLog(done.id);
    expect(log.body).toMatchObject({ offset: 0, next_offset: 3, line_count: 3, complete: true });
    expect(log.body.entries.map((e: { seq: number; type: string; update: unknown }) => [e.seq, e.type, e.update])).toEqual([
      [0, "prompt", { text: "succeed" }],
      [1, "output", { stream: "stdout", text: "working on report task" }],
      [2, "output", { stream: "stderr", text: "a line on stderr" }],
    ]);
    expect(Number.isNaN(Date.parse(log.body.entries[0].at))).toBe(false);

    const board = await server.call("GET", `${base()}/tasks/${t.id}`, { token });
    expect(board.body).toMatchObject({ latest_run_status: "succeeded", latest_run_trigger: "manual" });
  });

  it("hands the agent its task, a workspace-scoped API token (revoked afterwards) and not the server's secrets", async () => {
    const t = await newTask(server.call, token, wsId, { title: "env task", pr_url: "https://github.com/o/r/pull/7" });
    const started = await run(t.id, "env");
    const done = await finished(server.call, token, wsId, started.body.id);
    expect(done.status).toBe("succeeded");
    const lines = outputLines((await getLog(done.id)).body);
    expect(lines).toEqual(
      expect.arrayContaining([
        "TASKBOARD_TRIGGER=manual",
        `TASKBOARD_TASK_ID=${t.id}`,
        "TASKBOARD_TASK_TITLE=env task",
        "TASKBOARD_PR_URL=https://github.com/o/r/pull/7",
        `TASKBOARD_WORKSPACE_ID=${wsId}`,
        "TOKEN_PREFIX=tbg_",
        "HAS_DATABASE_URL=false",
        "API_STATUS=200",
      ]),
    );
    const cwd = lines.find((line) => line.startsWith("CWD="))!.slice(4);
    expect(cwd).toContain(t.id);
    // Not beside the database and auth-secret, nor any report file.
    expect(path.relative(fs.realpathSync(store.dataDir), fs.realpathSync(cwd)).startsWith("..")).toBe(true);
    const reportFile = lines.find((line) => line.startsWith("TASKBOARD_REPORT_FILE="))!.split("=")[1];
    expect(path.relative(store.dataDir, reportFile).startsWith("..")).toBe(true);
    const agentToken = /token=(\S+)/.exec(done.report)![1];
    // Revoked once the execution ended.
    const after = await server.call("GET", `${base()}/executions/${done.id}`, { token: agentToken });
    expect(after.status).toBe(401);
  });

  it("uses the task itself as instructions when none are given", async () => {
    const t = await newTask(server.call, token, wsId, { title: "succeed", description: "from the description" });
    const started = await run(t.id);
    expect(started.status).toBe(202);
    expect((await finished(server.call, token, wsId, started.body.id)).status).toBe("succeeded");
  });

  it("records a non-zero exit as failed, with the reason in words, and counts attempts", async () => {
    const t = await task();
    const first = await run(t.id, "fail 3");
    const failed = await finished(server.call, token, wsId, first.body.id);
    expect(failed).toMatchObject({ status: "failed", exit_code: 3 });
    expect(failed.error_message).toBe("the agent exited with code 3: something went wrong");
    expect(failed.report).toBe("about to fail\nsomething went wrong");

    const second = await run(t.id, "succeed");
    await finished(server.call, token, wsId, second.body.id);
    const runs = await server.call("GET", `${base()}/tasks/${t.id}/runs`, { token });
    expect(runs.body.map((r: { attempt_number: number; status: string }) => [r.attempt_number, r.status])).toEqual([
      [2, "succeeded"],
      [1, "failed"],
    ]);
    expect(runs.body[1]).toMatchObject({ exit_code: 3, error_message: failed.error_message });
    const limited = await server.call("GET", `${base()}/tasks/${t.id}/runs?limit=1`, { token });
    expect(limited.body).toHaveLength(1);
  });

  it("ignores a report file that is a symlink, so a server file cannot become a report", async () => {
    // A file of the server's, beside its database (auth-secret appears there only once a browser signs in).
    const secretFile = path.join(store.dataDir, "server-only-secret");
    const secret = `secret-${Date.now()}`;
    fs.writeFileSync(secretFile, secret, { mode: 0o600 });
    const t = await task();
    const done = await finished(server.call, token, wsId, (await run(t.id, `symlink-report ${secretFile}`)).body.id);
    expect(done.status).toBe("succeeded");
    expect(done.report).toBe("pointing the report at another file");
    expect(done.report).not.toContain(secret);
  });

  it("keeps the last 50 lines as the report when the agent writes none", async () => {
    const t = await task();
    const done = await finished(server.call, token, wsId, (await run(t.id, "tail")).body.id);
    const report = done.report.split("\n");
    expect(report).toHaveLength(50);
    expect(report[0]).toBe("tail line 70");
    expect(report[49]).toBe("tail line 119");
  });

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
    expect(cancelled.body).toMatchObject({ status: "cancelled", error_message: "cancelled by admin" });
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

// Its own server: the file's 3-second timeout is for the tests above, and a hundred thousand
// entries take longer than that to store on a loaded machine.
describe("a large log", () => {
  let big: EngineServer;
  let bigStore: Store;
  let bigToken: string;
  let bigWs: string;

  beforeAll(async () => {
    bigStore = await newStore("runs-big");
    big = await engineServer(bigStore, { AGENT_COMMAND: FIXTURE_AGENT, AGENT_LOG_FLUSH_MS: "200" }, "runs-big");
    ({ token: bigToken, wsId: bigWs } = await workspaceOn(big));
  });

  afterAll(async () => {
    await big?.stop();
    await bigStore?.drop();
  });

  it("stores 100,000 lines of output exactly and pages through them", async () => {
    const t = await newTask(big.call, bigToken, bigWs, { title: "big" });
    const started = await big.call("POST", `/api/workspaces/${bigWs}/tasks/${t.id}/runs`, {
      token: bigToken,
      json: { instructions: "lines 100000" },
    });
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
