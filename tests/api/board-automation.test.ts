import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, finished, newTask } from "../helpers/engine";
import { workspaceWithRunner } from "../helpers/runner-of-its-own";

// Board automation (docs/board-automation.md, lib/tasks/advance-task-on-run.ts), over HTTP with the
// real runner: a run's start moves its Backlog/To do task to In progress, a successful run whose
// branch has changes moves it on to In review, as the server; the workspace's auto_move_tasks
// turns it off; tasks elsewhere (Done) stay. The agent is tests/fixtures/git-agent.mjs (the
// workspace's default profile), working in the task's worktree of a bare repository on disk. On the
// shared server, with a runner of its own, so the worktrees are under this file's directory and its
// runs never wait for a slot of the shared runner.

const GIT_AGENT = { command: process.execPath, args: [path.resolve(import.meta.dirname, "../fixtures/git-agent.mjs")] };

let runner: Awaited<ReturnType<typeof workspaceWithRunner>>;
let server: typeof runner.server;
let token: string;
let wsId: string;
let root: string;

beforeAll(async () => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "board-automation-")));
  runner = await workspaceWithRunner(
    "board-automation",
    { AGENT_LOG_FLUSH_MS: "100", AGENT_WORKDIR: path.join(root, "work", "{workspace_id}", "{task_id}") },
    GIT_AGENT,
  );
  ({ server, token, wsId } = runner);
  const connected = await server.call("PUT", `${ws()}/repository`, { token, json: { url: bareRemote() } });
  expect(connected.status).toBe(200);
}, 90_000); // a runner process on a busy machine

afterAll(async () => {
  await runner?.stop();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

const ws = () => `/api/workspaces/${wsId}`;
const statusOf = async (taskId: string) => (await server.call("GET", `${ws()}/tasks/${taskId}`, { token })).body.status as string;

async function start(taskId: string, instructions: string) {
  const started = await server.call("POST", `${ws()}/tasks/${taskId}/runs`, { token, json: { instructions } });
  expect(started.status).toBe(202);
  return started.body.id as string;
}

/** The finishing move comes right after the run's own commit: wait for it, or make sure none comes. */
const reaches = (taskId: string, status: string) =>
  eventually(async () => ((await statusOf(taskId)) === status ? status : undefined), 5_000, `task to reach ${status}`);
async function stays(taskId: string, status: string) {
  for (let i = 0; i < 10; i++) {
    expect(await statusOf(taskId)).toBe(status);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("board automation", () => {
  it("moves a Backlog task to In progress when its run starts and to the end of In review when it succeeds with changes, as the server", async () => {
    const before = await newTask(server.call, token, wsId, { title: "Already in review", status: "in_review" });
    const task = await newTask(server.call, token, wsId, { title: "Write the notes", status: "backlog" });
    const execution = await start(task.id, "write NOTES.md hello");
    // Moved after the start's commit, before its answer.
    expect(await statusOf(task.id)).toBe("in_progress");

    expect((await finished(server.call, token, wsId, execution)).status).toBe("succeeded");
    await reaches(task.id, "in_review");
    const runs = await server.call("GET", `${ws()}/tasks/${task.id}/runs`, { token });
    expect(runs.body[0].files_changed).toBe(1);
    // move-task's own placement: appended after the task that was already there.
    const column = await server.call("GET", `${ws()}/board/column/in_review`, { token });
    expect(column.body.items.map((item: { id: string }) => item.id)).toEqual([before.id, task.id]);

    // Recorded as ordinary moves in the event log (the live board and webhooks read it), by the server.
    const activity = await server.call("GET", `${ws()}/tasks/${task.id}/activity?limit=100`, { token });
    const moves = activity.body.items.filter((item: { type: string }) => item.type === "task.moved");
    expect(moves.map((item: { summary: string; actor: unknown }) => [item.summary, item.actor])).toEqual([
      ["Moved to In review", null],
      ["Moved to In progress", null],
    ]);
  });

  it("leaves a task in In progress when its run changes nothing or fails", async () => {
    const task = await newTask(server.call, token, wsId, { title: "Look around", status: "todo" });
    const looked = await start(task.id, "look");
    expect(await statusOf(task.id)).toBe("in_progress");
    expect((await finished(server.call, token, wsId, looked)).status).toBe("succeeded");
    await stays(task.id, "in_progress");

    // With changes on the branch but a failed run: nothing to review yet.
    const other = await newTask(server.call, token, wsId, { title: "Half done", status: "todo" });
    expect((await finished(server.call, token, wsId, await start(other.id, "write half.txt half"))).status).toBe("succeeded");
    await reaches(other.id, "in_review");
    const back = await server.call("POST", `${ws()}/tasks/${other.id}/move`, { token, json: { column: "in_progress" } });
    expect(back.status).toBe(200);
    const failed = await finished(server.call, token, wsId, await start(other.id, "fail"));
    expect(failed.status).toBe("failed");
    const runs = await server.call("GET", `${ws()}/tasks/${other.id}/runs`, { token });
    expect(runs.body[0]).toMatchObject({ status: "failed", files_changed: 1 });
    await stays(other.id, "in_progress");
  });

  it("leaves a task where a person put it while its run went on", async () => {
    const task = await newTask(server.call, token, wsId, { title: "Not ready after all", status: "todo" });
    const execution = await start(task.id, "slow 3000 LATER.md later");
    expect(await statusOf(task.id)).toBe("in_progress");
    const back = await server.call("POST", `${ws()}/tasks/${task.id}/move`, { token, json: { column: "todo" } });
    expect(back.status).toBe(200);
    // The person moved it while the agent was still at work.
    expect((await server.call("GET", `${ws()}/executions/${execution}`, { token })).body.status).toBe("running");
    expect((await finished(server.call, token, wsId, execution)).status).toBe("succeeded");
    const runs = await server.call("GET", `${ws()}/tasks/${task.id}/runs`, { token });
    expect(runs.body[0].files_changed).toBe(1);
    await stays(task.id, "todo");
  });

  it("never moves a task back out of Done", async () => {
    const task = await newTask(server.call, token, wsId, { title: "Shipped", status: "done" });
    const execution = await start(task.id, "write SHIPPED.md yes");
    expect(await statusOf(task.id)).toBe("done");
    expect((await finished(server.call, token, wsId, execution)).status).toBe("succeeded");
    const runs = await server.call("GET", `${ws()}/tasks/${task.id}/runs`, { token });
    expect(runs.body[0].files_changed).toBe(1);
    await stays(task.id, "done");
  });

  it("moves nothing while the workspace's auto_move_tasks is off", async () => {
    const off = await server.call("PATCH", ws(), { token, json: { auto_move_tasks: false } });
    expect(off.body.auto_move_tasks).toBe(false);
    try {
      const task = await newTask(server.call, token, wsId, { title: "Left alone", status: "backlog" });
      const execution = await start(task.id, "write ALONE.md yes");
      expect(await statusOf(task.id)).toBe("backlog");
      expect((await finished(server.call, token, wsId, execution)).status).toBe("succeeded");
      await stays(task.id, "backlog");
    } finally {
      await server.call("PATCH", ws(), { token, json: { auto_move_tasks: true } });
    }
  });

  it("moves the task a schedule's run starts on to In progress", async () => {
    const schedule = await server.call("POST", `${ws()}/schedules`, {
      token,
      json: { name: "Nightly notes", cron: "0 3 * * *", default_instructions: "look" },
    });
    expect(schedule.status).toBe(201);
    const triggered = await server.call("POST", `${ws()}/schedules/${schedule.body.id}/trigger`, { token });
    expect(triggered.status).toBe(202);
    expect(await statusOf(triggered.body.task_id)).toBe("in_progress");
    await finished(server.call, token, wsId, triggered.body.execution_id);
    // The shared server outlives this file: a 03:00 run after it would wait for good for its runner.
    expect((await server.call("DELETE", `${ws()}/schedules/${schedule.body.id}`, { token })).status).toBe(204);
  });
});

/** A bare repository with one commit on main, as the workspace's remote on disk. */
function bareRemote(): string {
  const base = fs.mkdtempSync(path.join(root, "remote-"));
  const work = path.join(base, "work");
  const remote = path.join(base, "remote.git");
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: work });
  execFileSync("git", ["init", "-q", "--bare", "-b", "main", remote]);
  execFileSync("git", ["init", "-q", "-b", "main", work]);
  fs.writeFileSync(path.join(work, "README.md"), "hello\n");
  git("add", "-A");
  git("commit", "-q", "-m", "seed");
  git("remote", "add", "origin", remote);
  git("push", "-q", "origin", "main");
  return remote;
}
