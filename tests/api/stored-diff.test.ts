import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { finished, newTask } from "../helpers/engine";
import { workspaceWithRunner } from "../helpers/runner-of-its-own";

// GET …/tasks/{task_id}/diff is served from the database: each run stores its branch's diff against
// the base (bounded in bytes, and said to be truncated when it is), so the answer does not depend on
// what is on this instance's disk. The agent is tests/fixtures/git-agent.mjs (the workspaces'
// default profile). On the shared server, with a runner of its own: DIFF_MAX_BYTES is the runner's
// (it stores the diff), and its worktrees and clones are under this file's directory, so a test can
// remove them.

const GIT_AGENT = { command: process.execPath, args: [path.resolve(import.meta.dirname, "../fixtures/git-agent.mjs")] };
const MAX_BYTES = 4096;

let runner: Awaited<ReturnType<typeof workspaceWithRunner>>;
let server: typeof runner.server;
let token: string;
let wsId: string;
let root: string;

beforeAll(async () => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "stored-diff-")));
  runner = await workspaceWithRunner(
    "stored-diff",
    {
      AGENT_LOG_FLUSH_MS: "100",
      AGENT_WORKDIR: path.join(root, "work", "{workspace_id}", "{task_id}"),
      RUNNER_DIR: path.join(root, "runner"),
      DIFF_MAX_BYTES: String(MAX_BYTES),
    },
    GIT_AGENT,
  );
  ({ server, token, wsId } = runner);
}, 90_000); // a runner process on a busy machine

afterAll(async () => {
  await runner?.stop();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

const ws = (id = wsId) => `/api/workspaces/${id}`;

async function run(id: string, taskId: string, instructions: string) {
  const started = await server.call("POST", `${ws(id)}/tasks/${taskId}/runs`, { token, json: { instructions } });
  expect(started.status).toBe(202);
  return finished(server.call, token, id, started.body.id, 60_000);
}

describe("a task's diff, stored by its run", () => {
  it("is still served after the task's worktree and the server's whole clone are gone", async () => {
    const text = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
    const remote = bareRemote({ "src/a.txt": `${text.join("\n")}\n` });
    expect((await server.call("PUT", `${ws()}/repository`, { token, json: { url: remote } })).status).toBe(200);
    const task = await newTask(server.call, token, wsId, { title: "kept" });
    expect((await run(wsId, task.id, "write src/a.txt ONE")).status).toBe("succeeded");
    const live = await server.call("GET", `${ws()}/tasks/${task.id}/diff`, { token });
    expect(live.status).toBe(200);
    expect(live.body).toMatchObject({ truncated: false, files_changed: 1, lines_added: 1, lines_removed: 30 });
    expect(live.body.files[0].hunks[0].header).toBe("@@ -1,30 +1 @@");

    fs.rmSync(path.join(root, "work", wsId, task.id), { recursive: true, force: true });
    // Two clones now: the runner's, where the diff was made, and the server's, which took the run's bundle.
    const runnerClone = path.join(root, "runner", "repos", wsId);
    expect(fs.existsSync(runnerClone)).toBe(true);
    fs.rmSync(runnerClone, { recursive: true, force: true });
    fs.rmSync(serverClone(wsId), { recursive: true, force: true });
    const served = await server.call("GET", `${ws()}/tasks/${task.id}/diff`, { token });
    expect(served).toMatchObject({ status: 200, body: live.body });
  });

  it("cuts a smaller context from the stored diff as git would", async () => {
    const text = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`);
    const id = await runner.another(`context-${Date.now()}`);
    const remote = bareRemote({ "b.txt": `${text.join("\n")}\n` }, (work) => {
      git(work, "checkout", "-q", "-b", "feature/context");
      const changed = text.map((line, i) => (i === 4 || i === 30 ? line.toUpperCase() : line));
      fs.writeFileSync(path.join(work, "b.txt"), `${changed.join("\n")}\n`);
      git(work, "commit", "-q", "-am", "two changes far apart");
      git(work, "push", "-q", "origin", "feature/context");
    });
    expect((await server.call("PUT", `${ws(id)}/repository`, { token, json: { url: remote } })).status).toBe(200);
    const task = await newTask(server.call, token, id, { title: "context" });
    await server.call("PATCH", `${ws(id)}/tasks/${task.id}`, { token, json: { branch: "feature/context" } });
    expect((await run(id, task.id, "nothing")).status).toBe("succeeded");

    const work = path.join(path.dirname(remote), "work");
    for (const context of [0, 1, 3, 12, 50]) {
      const served = await server.call("GET", `${ws(id)}/tasks/${task.id}/diff?context=${context}`, { token });
      const expected = git(work, "diff", `--unified=${context}`, "main", "feature/context")
        .split("\n")
        .filter((line) => line.startsWith("@@"));
      expect(
        served.body.files[0].hunks.map((hunk: { header: string }) => hunk.header),
        `context ${context}`,
      ).toEqual(expected);
    }
  });

  it("is stored truncated when it is over DIFF_MAX_BYTES, and says so", async () => {
    const id = await runner.another(`over-${Date.now()}`);
    const big = Array.from({ length: 400 }, (_, i) => `a line of the big file, number ${i}`).join("\n");
    const remote = bareRemote({ "small.txt": "one\n" }, (work) => {
      git(work, "checkout", "-q", "-b", "feature/big");
      fs.writeFileSync(path.join(work, "big.txt"), `${big}\n`);
      git(work, "add", "-A");
      git(work, "commit", "-q", "-m", "big");
      git(work, "push", "-q", "origin", "feature/big");
    });
    expect((await server.call("PUT", `${ws(id)}/repository`, { token, json: { url: remote } })).status).toBe(200);
    const task = await newTask(server.call, token, id, { title: "over" });
    await server.call("PATCH", `${ws(id)}/tasks/${task.id}`, { token, json: { branch: "feature/big" } });
    const done = await run(id, task.id, "write notes.md noted");
    expect(done.status).toBe("succeeded");
    const log = JSON.stringify((await server.call("GET", `${ws(id)}/executions/${done.id}/log`, { token })).body);
    expect(log).toContain("The branch's diff is too large to keep whole: it was stored truncated");

    const response = await fetch(`${server.url}${ws(id)}/tasks/${task.id}/diff`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    const diff = await response.json();
    expect(diff).toMatchObject({ truncated: true, files_changed: 2, lines_added: 401 });
    expect(diff.files).toEqual([
      expect.objectContaining({ path: "big.txt", additions: 400, summary: "Not shown: the diff is too large to send whole", hunks: [] }),
      expect.objectContaining({ path: "notes.md", summary: null, hunks: [expect.objectContaining({ header: "@@ -0,0 +1 @@" })] }),
    ]);
    expect(Buffer.byteLength(JSON.stringify(diff))).toBeLessThan(MAX_BYTES);
  });

  it("answers 409 in words for a task whose branch no run has recorded yet", async () => {
    const task = await newTask(server.call, token, wsId, { title: "never run" });
    await server.call("PATCH", `${ws()}/tasks/${task.id}`, { token, json: { branch: "feature/elsewhere" } });
    const response = await server.call("GET", `${ws()}/tasks/${task.id}/diff`, { token });
    expect(response).toMatchObject({
      status: 409,
      body: { detail: "No run has recorded a diff of the branch feature/elsewhere yet: start a run on the task first" },
    });
  });
});

/** The shared server's clone of a workspace's repository, in its DATA_DIR; it must exist, so the test cannot pass by removing nothing. */
function serverClone(id: string): string {
  const clone = path.join(inject("serverDataDir"), "repos", id);
  expect(fs.existsSync(clone)).toBe(true);
  return clone;
}

function bareRemote(files: Record<string, string>, more?: (work: string) => void): string {
  const base = fs.mkdtempSync(path.join(root, "remote-"));
  const work = path.join(base, "work");
  const remote = path.join(base, "remote.git");
  execFileSync("git", ["init", "-q", "--bare", "-b", "main", remote]);
  execFileSync("git", ["init", "-q", "-b", "main", work]);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
    fs.writeFileSync(path.join(work, file), text);
  }
  git(work, "add", "-A");
  git(work, "commit", "-q", "-m", "seed");
  git(work, "remote", "add", "origin", remote);
  git(work, "push", "-q", "origin", "main");
  more?.(work);
  return remote;
}

function git(dir: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: dir, encoding: "utf8" }).trim();
}
