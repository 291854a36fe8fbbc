import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { finished, newTask, outputLines } from "../helpers/engine";
import { runsApi, runsWorkspace } from "../helpers/runs";
import { ADMIN } from "../setup/global-server";
import { SERVER_SECRET_NAME } from "@/lib/crypto/server-secret-name";

// Manual runs with real child processes (tests/fixtures/agent.mjs, told what to do by its instructions): what they are given and what they record.
// On the shared server, in a workspace whose default agent profile is the fixture, served only by a
// runner process of this file's own (tests/helpers/runs.ts).

let owned: Awaited<ReturnType<typeof runsWorkspace>>;
let server: typeof owned.server;
let token: string;
let wsId: string;
let agentId: string;
// The shared server's DATA_DIR: its database and auth-secret (tests/setup/global-server.ts).
let serverDataDir: string;

// The shared server's own settings that are secrets (tests/setup/global-server.ts and
// scripts/lib/server.mjs: DATABASE_URL is "" on PGlite, as the server has it), handed to this
// file's runner as a runner started in the server's environment would have them: its agents must
// see none of them. Not DATA_DIR: a runner reads it as its own (lib/config.ts), and the server's
// is checked below as a path the agent must not be in or be told of.
const serverSecrets = () => ({ DATABASE_URL: inject("databaseUrl"), ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password });

beforeAll(async () => {
  serverDataDir = inject("serverDataDir");
  owned = await runsWorkspace("runs", serverSecrets());
  ({ server, token, wsId, agentId } = owned);
}, 90_000); // a runner process on a busy machine

const { base, run, task, getLog, cancelLeft } = runsApi(() => ({ server, token, wsId }));

afterAll(async () => {
  if (owned) await cancelLeft();
  await owned?.stop();
});

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
    // The prompt, then the agent's two lines. The agent is the workspace's default profile (the
    // shared server has no AGENT_COMMAND to fall back on).
    expect(done).toMatchObject({ status: "succeeded", exit_code: 0, error_message: null, line_count: 3, agent_id: agentId });
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
      agent_id: agentId,
      agent_name: "default",
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
    // None of the server's secrets its runner was given (above), nor anything named like a secret
    // but the agent's own token; and not their values under another name, nor the runner's token
    // or the server's data directory.
    const environment: Record<string, string> = JSON.parse(lines.find((line) => line.startsWith("ENVIRONMENT="))!.slice(12));
    for (const name of Object.keys(serverSecrets())) expect(environment).not.toHaveProperty(name);
    expect(Object.keys(environment).filter((name) => SERVER_SECRET_NAME.test(name))).toEqual(["TASKBOARD_API_TOKEN"]);
    const told = JSON.stringify(environment);
    for (const [what, value] of Object.entries({
      "the administrator's password": ADMIN.password,
      "the database's URL": serverSecrets().DATABASE_URL,
      "the runner's token": owned.runnerToken,
      "the server's data directory": serverDataDir,
    }))
      if (value) expect(told, what).not.toContain(value);
    const cwd = lines.find((line) => line.startsWith("CWD="))!.slice(4);
    expect(cwd).toContain(t.id);
    // Not beside the database and auth-secret, nor any report file.
    expect(path.relative(fs.realpathSync(serverDataDir), fs.realpathSync(cwd)).startsWith("..")).toBe(true);
    const reportFile = lines.find((line) => line.startsWith("TASKBOARD_REPORT_FILE="))!.split("=")[1];
    expect(path.relative(serverDataDir, reportFile).startsWith("..")).toBe(true);
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
    // A file of the shared server's, beside its database (auth-secret appears there only once a browser signs in).
    const secretFile = path.join(serverDataDir, `server-only-secret-${process.pid}-${Date.now()}`);
    const secret = `secret-${Date.now()}`;
    fs.writeFileSync(secretFile, secret, { mode: 0o600 });
    try {
      const t = await task();
      const done = await finished(server.call, token, wsId, (await run(t.id, `symlink-report ${secretFile}`)).body.id);
      expect(done.status).toBe("succeeded");
      expect(done.report).toBe("pointing the report at another file");
      expect(done.report).not.toContain(secret);
    } finally {
      fs.rmSync(secretFile, { force: true });
    }
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
