import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { finished, newTask, outputLines, type EngineServer, type Store } from "../helpers/engine";
import { runsApi, startRunsServer } from "../helpers/runs";

// Manual runs with real child processes (tests/fixtures/agent.mjs, told what to do by its instructions): what they are given and what they record.

let store: Store;
let server: EngineServer;
let token: string;
let wsId: string;

beforeAll(async () => {
  ({ store, server, token, wsId } = await startRunsServer("runs"));
});

afterAll(async () => {
  await server?.stop();
  await store?.drop();
});

const { base, run, task, getLog } = runsApi(() => ({ server, token, wsId }));

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
        "chain_depth",
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
        "started_by_execution_id",
        "status",
        "task_id",
        "task_run_id",
        "waiting_for_runner",
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
    expect(failed.error_message).toBe("something went wrong (the agent exited with code 3)");
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
});
