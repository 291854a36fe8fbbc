import { execFileSync, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, newTask, type EngineServer, type Store } from "../helpers/engine";
import { GIT_AGENT, githubPullRequestServer, pushToRemote, remoteHead } from "../helpers/github-pull-requests";
import { CLAIM, registerRunner, type ProtocolRunner } from "../helpers/claims";
import { spawnRunner } from "../helpers/runner-process";

// A run on a runner with its own clone (its own RUNNER_DIR, not the server's DATA_DIR): its commits
// reach the server's clone as a git bundle (PUT /api/runner/executions/{id}/bundle), so "Open pull
// request" and the push to an open pull request work as they do for the embedded runner. Then the
// operation by hand: only the task's branch is taken, fast-forward only, objects checked; garbage,
// oversized and foreign uploads change nothing.

const MAX_BYTES = 64 * 1024;
const github = githubPullRequestServer("runner-bundle", { RUNNER_EMBEDDED: "false", RUNNER_BUNDLE_MAX_BYTES: String(MAX_BYTES) });
const { connected, runToEnd } = github;
let store: Store;
let server: EngineServer;
let root: string;
let runner: ChildProcess | undefined;

beforeAll(() => {
  ({ store, server } = github.started());
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "runner-bundle-")));
});

afterAll(() => {
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

/** Stops the runner process (SIGTERM: it hands back what it holds and exits), so runs queued later wait for a runner driven by hand. */
async function stopRunner() {
  if (!runner || runner.exitCode !== null) return;
  const exited = new Promise((resolve) => runner!.once("exit", resolve));
  runner.kill("SIGTERM");
  await exited;
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=Tester", "-c", "user.email=tester@example.com", ...args], { cwd, stdio: "pipe" })
    .toString()
    .trim();
}

/** A ref of the server's clone of the workspace's repository, or null. */
function serverRef(wsId: string, ref: string): string | null {
  try {
    return git(path.join(store.dataDir, "repos", wsId), "rev-parse", "--verify", "--quiet", `${ref}^{commit}`);
  } catch {
    return null;
  }
}

describe("a run on a runner with its own clone", () => {
  it("takes its commits to the server's clone: Open pull request pushes them, and a later run's reach the open pull request", async () => {
    const ctx = await connected();
    const created = await server.call("POST", "/api/runners", { token: ctx.token, json: { name: "remote", capacity: 1 } });
    expect(created.status).toBe(201);
    runner = spawnRunner(server.url, created.body.token, {
      AGENT_COMMAND: GIT_AGENT,
      RUNNER_DIR: path.join(root, "runner"),
      DATA_DIR: path.join(root, "runner-data"),
    });
    const task = await newTask(server.call, ctx.token, ctx.wsId, { title: "Remote work", status: "in_progress" });
    const run = await runToEnd(ctx, task.id, "write remote.txt made elsewhere");
    expect(run).toMatchObject({ status: "succeeded", runner_name: "remote" });
    const { branch, task_runs } = await ctx.task(task.id);
    const sha = task_runs[0].commit_sha as string;
    expect(sha).toMatch(/^[0-9a-f]{40}$/);
    // The runner worked in its own clone; the server's clone has the commit all the same.
    expect(git(path.join(root, "runner", "repos", ctx.wsId), "rev-parse", `refs/heads/${branch}`)).toBe(sha);
    expect(serverRef(ctx.wsId, `refs/heads/${branch}`)).toBe(sha);
    // A run does not push: the branch reaches GitHub with the pull request.
    expect(remoteHead(ctx.bare, branch)).toBeNull();

    const opened = await ctx.openPr(task.id);
    expect(opened.status).toBe(201);
    expect(remoteHead(ctx.bare, branch)).toBe(sha);

    // The next run's commits go to the open pull request: the bundle is stored before the outcome.
    expect((await runToEnd(ctx, task.id, "write more.txt more")).status).toBe("succeeded");
    const next = (await ctx.task(task.id)).task_runs[0].commit_sha as string;
    expect(next).not.toBe(sha);
    await eventually(async () => (remoteHead(ctx.bare, branch) === next ? true : undefined), 20_000, "the push to the open pull request");
  }, 120_000);

  afterAll(stopRunner);
});

describe("PUT /api/runner/executions/{id}/bundle", () => {
  let ctx: Awaited<ReturnType<typeof connected>>;
  let hand: ProtocolRunner;
  let executionId: string;
  let branch: string;
  let work: string;

  beforeAll(async () => {
    ctx = await connected();
    hand = await registerRunner(server, ctx.token, `by-hand-${Date.now()}`);
    const task = await newTask(server.call, ctx.token, ctx.wsId, { title: "By hand", status: "in_progress" });
    const started = await server.call("POST", `/api/workspaces/${ctx.wsId}/tasks/${task.id}/runs`, { token: ctx.token });
    expect(started.status).toBe(202);
    const claimed = await eventually(async () => (await hand.call("POST", "/claim", CLAIM)).body.job ?? undefined, 20_000, "the claim");
    executionId = claimed.execution_id;
    branch = claimed.repository.branch;
    // The runner's clone, as a runner makes it.
    work = path.join(root, `hand-${crypto.randomUUID()}`);
    git(root, "clone", "--quiet", ctx.bare, work);
    git(work, "switch", "--quiet", "-c", branch, "origin/main");
  });

  const put = async (bytes: Uint8Array, token?: string) => {
    const response = await fetch(`${server.url}/api/runner/executions/${executionId}/bundle`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token ?? hand.token}`, "content-type": "application/octet-stream" },
      body: new Blob([bytes as Uint8Array<ArrayBuffer>]),
    });
    return { status: response.status, body: await response.json() };
  };

  function commit(file: string, text: string, on = branch) {
    git(work, "switch", "--quiet", on);
    fs.writeFileSync(path.join(work, file), text);
    git(work, "add", "-A");
    git(work, "commit", "--quiet", "-m", `write ${file}`);
    return git(work, "rev-parse", "HEAD");
  }

  function bundle(...revs: string[]): Buffer {
    const file = path.join(work, "..", `${crypto.randomUUID()}.bundle`);
    git(work, "bundle", "create", "--quiet", file, ...revs);
    const bytes = fs.readFileSync(file);
    fs.rmSync(file);
    return bytes;
  }

  it("takes only the task's branch: another ref in the bundle stays as the server has it", async () => {
    const tip = commit("a.txt", "a\n");
    const main = commit("main.txt", "not for the board\n", "main");
    const answer = await put(bundle(`refs/heads/${branch}`, "refs/heads/main", "^origin/main"));
    expect(answer).toMatchObject({ status: 200, body: { branch, commit_sha: tip, stored: true, message: null } });
    expect(serverRef(ctx.wsId, `refs/heads/${branch}`)).toBe(tip);
    expect(serverRef(ctx.wsId, "refs/heads/main")).not.toBe(main);
    expect(git(path.join(store.dataDir, "repos", ctx.wsId), "cat-file", "-t", tip)).toBe("commit");

    // A bundle of another ref alone: 422 in the documented shape, nothing moved.
    const other = await put(bundle("refs/heads/main", "^origin/main"));
    expect(other.status).toBe(422);
    expect(other.body.detail[0]).toMatchObject({ loc: ["body"], msg: `The bundle holds no refs/heads/${branch}, the task's branch` });
    expect(serverRef(ctx.wsId, "refs/heads/main")).not.toBe(main);
    // Sent again (a retry after a lost answer): nothing to do.
    expect((await put(bundle(`refs/heads/${branch}`, "^origin/main"))).body).toMatchObject({ stored: true, commit_sha: tip });
  });

  it("fetches the remote first when the bundle builds on commits the server's clone lacks", async () => {
    const newer = pushToRemote(ctx.bare, "main", { "newer.txt": "newer\n" });
    git(work, "fetch", "--quiet", "origin");
    git(work, "switch", "--quiet", branch);
    git(work, "merge", "--quiet", "--no-edit", "origin/main");
    const tip = commit("b.txt", "b\n");
    expect(serverRef(ctx.wsId, newer)).toBeNull();
    const answer = await put(bundle(`refs/heads/${branch}`, "^origin/main"));
    expect(answer).toMatchObject({ status: 200, body: { stored: true, commit_sha: tip } });
    expect(serverRef(ctx.wsId, `refs/heads/${branch}`)).toBe(tip);
  });

  it("refuses garbage, an oversized body and objects that fail git's checks with a 4xx, and leaves the clone as it was", async () => {
    const before = serverRef(ctx.wsId, `refs/heads/${branch}`);
    const garbage = await put(crypto.randomBytes(1000));
    expect(garbage.status).toBe(422);
    expect(garbage.body.detail[0]).toMatchObject({ loc: ["body"], type: "value_error" });
    expect((await put(new Uint8Array())).status).toBe(422);
    const header = Buffer.from(`# v2 git bundle\n${before} refs/heads/${branch}\n\n`);
    const oversized = await put(Buffer.concat([header, crypto.randomBytes(MAX_BYTES)]));
    expect(oversized).toMatchObject({ status: 413, body: { detail: `Request body larger than ${MAX_BYTES} bytes` } });

    // A commit git's fsck refuses (a malformed author line), made with git's own plumbing.
    const tree = git(work, "rev-parse", `${branch}^{tree}`);
    const text = `tree ${tree}\nparent ${before}\nauthor bad <x@y> not-a-date\ncommitter a <a@b> 1 +0000\n\nbad\n`;
    const bad = execFileSync("git", ["hash-object", "-t", "commit", "-w", "--literally", "--stdin"], { cwd: work, input: text })
      .toString()
      .trim();
    git(work, "update-ref", `refs/heads/${branch}`, bad);
    const refused = await put(bundle(`refs/heads/${branch}`, `^${before}`));
    expect(refused.status).toBe(422);
    expect(refused.body.detail[0].msg).toMatch(/failed git's checks/);
    git(work, "update-ref", `refs/heads/${branch}`, before!);
    expect(serverRef(ctx.wsId, `refs/heads/${branch}`)).toBe(before);
  });

  it("never moves the branch backwards or sideways: the answer says so in words", async () => {
    const before = serverRef(ctx.wsId, `refs/heads/${branch}`)!;
    git(work, "switch", "--quiet", "-C", branch, "origin/main");
    const sideways = commit("c.txt", "c\n");
    const answer = await put(bundle(`refs/heads/${branch}`, "^origin/main"));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ stored: false, commit_sha: sideways });
    expect(answer.body.message).toMatch(
      new RegExp(`^The run's commits on ${branch} were not stored on the server: .*has commits the run's branch lacks`),
    );
    expect(serverRef(ctx.wsId, `refs/heads/${branch}`)).toBe(before);
  });

  it("answers 404 to another runner, 401 to anything but a runner token", async () => {
    const before = serverRef(ctx.wsId, `refs/heads/${branch}`);
    const stranger = await registerRunner(server, ctx.token, `stranger-${Date.now()}`);
    git(work, "switch", "--quiet", "-C", branch, before!);
    const payload = bundle(`refs/heads/${branch}`, "^origin/main");
    expect((await put(payload, stranger.token)).status).toBe(404);
    expect((await put(payload, ctx.token)).status).toBe(401);
    expect(serverRef(ctx.wsId, `refs/heads/${branch}`)).toBe(before);
  });
});
