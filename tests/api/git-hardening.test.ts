import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineServer, finished, newStore, newTask, workspaceOn, type EngineServer, type Store } from "../helpers/engine";

// An agent writes to its worktree (and, without a sandbox, to anything its user may write), then
// the board runs git there: each trick below is tried by a command agent from inside its worktree
// (tests/fixtures/git-trick-agent.mjs), and the board's next git commands in that worktree must not
// run what the trick planted. Each program planted only creates a marker file. After each run the
// test runs plain git in the same worktree itself, and the marker appears: the trick was real, and
// only the board's hardening (docs/git-safety.md) stopped it.

const TRICK_AGENT = `${process.execPath} ${path.resolve(import.meta.dirname, "../fixtures/git-trick-agent.mjs")}`;

let store: Store;
let server: EngineServer;
let token: string;
let root: string;

beforeAll(async () => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "git-hardening-")));
  store = await newStore("git-hardening");
  server = await engineServer(store, {
    AGENT_COMMAND: TRICK_AGENT,
    // The hardening is the second line: inside the sandbox (docs/runners.md) the clone's hooks and
    // configuration are read-only and these tricks fail before git runs, so they are tried unconfined.
    AGENT_SANDBOX: "off",
    AGENT_LOG_FLUSH_MS: "100",
    AGENT_WORKDIR: path.join(root, "work", "{workspace_id}", "{task_id}"),
  });
  ({ token } = await workspaceOn(server));
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await store?.drop();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

/** A workspace of its own (its own clone) on a fresh bare remote, and a task in it. */
async function taskOnRepository(name: string) {
  const created = await server.call("POST", "/api/workspaces", { token, json: { name: `${name}-${Date.now()}` } });
  expect(created.status).toBe(201);
  const wsId = created.body.id as string;
  const remote = bareRemote(name);
  expect((await server.call("PUT", `/api/workspaces/${wsId}/repository`, { token, json: { url: remote } })).status).toBe(200);
  const task = await newTask(server.call, token, wsId, { title: name });
  return { wsId, taskId: task.id as string, dir: path.join(root, "work", wsId, task.id), remote };
}

async function run(wsId: string, taskId: string, instructions: string) {
  const started = await server.call("POST", `/api/workspaces/${wsId}/tasks/${taskId}/runs`, { token, json: { instructions } });
  expect(started.status).toBe(202);
  return finished(server.call, token, wsId, started.body.id, 60_000);
}

const marker = (name: string) => path.join(root, `ran-${name}`);

describe("git in a worktree an agent tampered with", () => {
  it("never follows a .git gitfile the agent pointed at its own repository with core.fsmonitor", async () => {
    const { wsId, taskId, dir } = await taskOnRepository("gitfile");
    const done = await run(wsId, taskId, `gitfile ${marker("gitfile")}`);
    expect(done.status).toBe("failed");
    expect(done.error_message).toMatch(/^git: The worktree's \.git no longer points at the git directory the board made for it/);
    expect(fs.existsSync(marker("gitfile"))).toBe(false);

    // Plain git in the same worktree runs the agent's program: the trick was real.
    plainGit(dir, "status");
    expect(fs.existsSync(marker("gitfile"))).toBe(true);
    fs.rmSync(marker("gitfile"));

    // The next run points .git back where it belongs before the agent starts, and goes on safely.
    const next = await run(wsId, taskId, "write");
    expect(next.status).toBe("succeeded");
    const log = JSON.stringify((await server.call("GET", `/api/workspaces/${wsId}/executions/${next.id}/log`, { token })).body);
    expect(log).toContain("The worktree's .git had been changed by an earlier run");
    expect(fs.existsSync(marker("gitfile"))).toBe(false);
  });

  it("runs no hook the agent put in the clone's hooks directory, and commits its work", async () => {
    const { wsId, taskId, dir } = await taskOnRepository("hooks-dir");
    const done = await run(wsId, taskId, `hooks-dir ${marker("hooks-dir")}`);
    expect(done.status).toBe("succeeded");
    const runs = await server.call("GET", `/api/workspaces/${wsId}/tasks/${taskId}/runs`, { token });
    expect(runs.body[0].files_changed).toBeGreaterThanOrEqual(1);
    expect(fs.existsSync(marker("hooks-dir"))).toBe(false);
    const committed = execFileSync("git", ["show", "--name-only", "--format=%an", "HEAD"], { cwd: dir, encoding: "utf8" });
    expect(committed).toContain("Taskboard");
    expect(committed).toContain("hooks-dir.txt");

    plainGit(dir, "commit", "--allow-empty", "-q", "-m", "by hand");
    expect(fs.existsSync(marker("hooks-dir"))).toBe(true);
  });

  it("refuses to run git when the clone's configuration gained core.hooksPath, in words", async () => {
    const { wsId, taskId, dir } = await taskOnRepository("hooks-path");
    const done = await run(wsId, taskId, `hooks-path ${marker("hooks-path")}`);
    expect(done.status).toBe("failed");
    expect(done.error_message).toMatch(
      /^git: The repository's git configuration holds core\.hookspath, which neither git nor the board writes there/,
    );
    expect(fs.existsSync(marker("hooks-path"))).toBe(false);

    plainGit(dir, "commit", "--allow-empty", "-q", "-m", "by hand");
    expect(fs.existsSync(marker("hooks-path"))).toBe(true);
  });

  it("refuses to run git when .gitattributes names a filter and a textconv driver set in the clone's configuration", async () => {
    const { wsId, taskId, dir } = await taskOnRepository("filter");
    const done = await run(wsId, taskId, `filter ${marker("filter")}`);
    expect(done.status).toBe("failed");
    expect(done.error_message).toMatch(
      /^git: The repository's git configuration holds filter\.tb\.clean, diff\.tb\.textconv, which neither/,
    );
    expect(fs.existsSync(marker("filter"))).toBe(false);
    // The diff route reads the database only: no git runs for it at all.
    expect((await server.call("GET", `/api/workspaces/${wsId}/tasks/${taskId}/diff`, { token })).status).toBe(409);
    expect(fs.existsSync(marker("filter"))).toBe(false);

    plainGit(dir, "add", "-A");
    expect(fs.existsSync(marker("filter"))).toBe(true);
  });
});

/** git as anyone would run it in the worktree: discovering .git, reading every configuration. */
function plainGit(dir: string, ...args: string[]) {
  try {
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: dir, stdio: "ignore" });
  } catch {
    // The outcome that matters is the marker; git may well fail after running the program.
  }
}

function bareRemote(name: string): string {
  const base = fs.mkdtempSync(path.join(root, `remote-${name}-`));
  const work = path.join(base, "work");
  const remote = path.join(base, "remote.git");
  execFileSync("git", ["init", "-q", "--bare", "-b", "main", remote]);
  execFileSync("git", ["init", "-q", "-b", "main", work]);
  fs.writeFileSync(path.join(work, "README.md"), "hello\n");
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: work });
  git("add", "-A");
  git("commit", "-q", "-m", "seed");
  git("remote", "add", "origin", remote);
  git("push", "-q", "origin", "main");
  return remote;
}
