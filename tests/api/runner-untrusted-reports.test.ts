import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  databaseKind,
  engineServer,
  eventually,
  FIXTURE_AGENT,
  finished,
  newStore,
  newTask,
  workspaceOn,
  type EngineServer,
  type Store,
} from "../helpers/engine";
import { CLAIM, registerRunner } from "../helpers/claims";

// Issue #35: what a runner reports cannot make the server delete a path or lose a run. A worktree
// path is the runner's word: the sweep deletes only the path the server derives itself for its own
// (embedded) runner's records, never a path a runner named, nor a remote runner's files. And the
// report `finish` carries is capped below finish's limit, so long output lines never make a run's
// outcome unreportable. Against a server with its embedded runner and the fixture agent.

let store: Store;
let server: EngineServer;
let token: string;
let wsId: string;
let root: string;

beforeAll(async () => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "runner-untrusted-")));
  store = await newStore("runner-untrusted");
  server = await engineServer(
    store,
    {
      AGENT_COMMAND: FIXTURE_AGENT,
      AGENT_LOG_FLUSH_MS: "100",
      AGENT_MAX_CONCURRENT: "2",
      AGENT_KILL_GRACE_SECONDS: "1",
      AGENT_WORKDIR: path.join(root, "work", "{workspace_id}", "{task_id}"),
      SCHEDULER_INTERVAL_MS: "200",
    },
    "runner-untrusted",
  );
  ({ token, wsId } = await workspaceOn(server));
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await store?.drop();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

const api = (suffix: string) => `/api/workspaces/${wsId}${suffix}`;
const workdir = (taskId: string) => path.join(root, "work", wsId, taskId);
const execution = async (id: string) => (await server.call("GET", api(`/executions/${id}`), { token })).body;

/** The embedded runner's own token, as an attacker holding it would use it (it is kept in DATA_DIR). */
function embeddedCall(method: string, urlPath: string, json?: unknown) {
  const registration = JSON.parse(fs.readFileSync(path.join(store.dataDir, "embedded-runner.json"), "utf8")) as { token: string };
  return server.call(method, `/api/runner${urlPath}`, { token: registration.token, json });
}

/** A run of `instructions` on a new task, once its agent has started. */
async function started(title: string, instructions: string) {
  const task = await newTask(server.call, token, wsId, { title });
  const run = await server.call("POST", api(`/tasks/${task.id}/runs`), { token, json: { instructions } });
  expect(run.status).toBe(202);
  const id = run.body.id as string;
  await eventually(async () => ((await execution(id)).runner_pid ? true : undefined), 30_000, `${title} started`);
  return { taskId: task.id, executionId: id };
}

/** A directory with a file in it, standing for something the server must not delete. */
function precious(dir: string) {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "keep.txt"), "keep me\n");
  return dir;
}

describe("the worktree sweep and the paths runners report", () => {
  it("refuses a relative path or one with '..', and another runner's execution", async () => {
    const { taskId, executionId } = await started("refusals", "sleep 30");
    const patch = (worktree: unknown) => embeddedCall("PATCH", `/executions/${executionId}`, { worktree });
    const relative = await patch({ path: "work/elsewhere", branch: "x" });
    expect(relative.status).toBe(422);
    expect(JSON.stringify(relative.body.detail)).toContain("The worktree's path must be absolute (start with /)");
    const climbing = await patch({ path: `${workdir(taskId)}/../../../etc`, branch: "x" });
    expect(climbing.status).toBe(422);
    expect(JSON.stringify(climbing.body.detail)).toContain("The worktree's path must not contain '..'");
    const other = await registerRunner(server, token, "not the holder");
    const foreign = await other.call("PATCH", `/executions/${executionId}`, { worktree: { path: "/tmp/x", branch: "x" } });
    expect(foreign.status).toBe(404);
    expect((await server.call("POST", api(`/executions/${executionId}/cancel`), { token })).status).toBe(200);
    await other.remove();
  });

  it("never deletes a path a runner reported, nor a remote runner's worktree, but deletes the one it derives itself", async () => {
    // Two runs hold the embedded runner's two slots, so the third goes to a runner registered here.
    const planted = await started("planted path", "sleep 30");
    const own = await started("own path", "sleep 30");
    const outside = precious(path.join(root, "outside", "precious"));
    const reported = await embeddedCall("PATCH", `/executions/${planted.executionId}`, { worktree: { path: outside, branch: "x" } });
    expect(reported.status).toBe(204);
    // The attempt is real: the path the server derives, reported the same way, is deleted below.
    expect(fs.existsSync(workdir(own.taskId))).toBe(true);
    const derived = await embeddedCall("PATCH", `/executions/${own.executionId}`, { worktree: { path: workdir(own.taskId), branch: "y" } });
    expect(derived.status).toBe(204);

    const remote = await registerRunner(server, token, "remote");
    const remoteTask = await newTask(server.call, token, wsId, { title: "remote runner's task" });
    const queued = await server.call("POST", api(`/tasks/${remoteTask.id}/runs`), { token });
    expect(queued.status).toBe(202);
    const claim = await remote.call("POST", "/claim", CLAIM);
    expect(claim.body.job?.execution_id).toBe(queued.body.id);
    // On this machine the remote runner's worktree sits where the server's own would: still its own.
    const remoteDir = precious(workdir(remoteTask.id));
    const remoteReport = await remote.call("PATCH", `/executions/${queued.body.id}`, { worktree: { path: remoteDir, branch: "z" } });
    expect(remoteReport.status).toBe(204);
    await remote.finish(queued.body.id);

    for (const { executionId } of [planted, own]) {
      expect((await server.call("POST", api(`/executions/${executionId}/cancel`), { token })).status).toBe(200);
    }
    for (const taskId of [planted.taskId, own.taskId, remoteTask.id]) {
      expect((await server.call("DELETE", api(`/tasks/${taskId}`), { token })).status).toBe(204);
    }
    await eventually(async () => (fs.existsSync(workdir(own.taskId)) ? undefined : true), 15_000, "the derived worktree swept");
    if (databaseKind() === "postgresql") {
      await eventually(async () => ((await store.sql("SELECT count(*)::int AS n FROM task_worktrees"))[0].n === 0 ? true : undefined));
    } else {
      await new Promise((resolve) => setTimeout(resolve, 1000)); // a few more sweeps
    }
    expect(fs.readFileSync(path.join(outside, "keep.txt"), "utf8")).toBe("keep me\n");
    expect(fs.readFileSync(path.join(remoteDir, "keep.txt"), "utf8")).toBe("keep me\n");
    await remote.remove();
  });
});

describe("the report a run ends with", () => {
  it("is capped below finish's limit: 50 lines of 10,000 characters end succeeded with their tail, cut and saying so", async () => {
    const task = await newTask(server.call, token, wsId, { title: "long lines" });
    const run = await server.call("POST", api(`/tasks/${task.id}/runs`), { token, json: { instructions: "wide 50" } });
    expect(run.status).toBe(202);
    const done = await finished(server.call, token, wsId, run.body.id, 60_000);
    expect(done.status).toBe("succeeded");
    const report = (await execution(run.body.id)).report as string;
    expect(report.startsWith("[report cut to its last 64 KiB]\n")).toBe(true);
    expect(report.endsWith(`wide 49 ${"w".repeat(10_000)}`)).toBe(true);
    expect(Buffer.byteLength(report, "utf8")).toBeLessThanOrEqual(64 * 1024);
  });
});
