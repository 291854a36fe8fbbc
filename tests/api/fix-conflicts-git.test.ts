import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, finished, newTask, type EngineServer, type Store } from "../helpers/engine";
import { commitFile, git, gitBare, startWorktreeServer, worktreeApi } from "../helpers/worktrees";

// Fix-conflicts in git, over HTTP, against bare repositories on disk as remotes: it really merges
// and pushes (conflicted, clean, and cannot complete), only the task's own branch, and never creates one. The agent is tests/fixtures/git-agent.mjs.

let store: Store;
let server: EngineServer;
let token: string;
let wsId: string;
let root: string;

beforeAll(async () => {
  ({ store, server, token, wsId, root } = await startWorktreeServer("fix-conflicts-git"));
}, 180_000); // a fresh server on a busy machine

afterAll(async () => {
  await server?.stop();
  await store?.drop();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

const { ws, workdir, connect, bareRemote } = worktreeApi(() => ({ server, token, wsId, root }));

describe("fix-conflicts in git", () => {
  let fixWs: string;
  let remote: string;
  let work: string;
  let base: string;

  beforeAll(async () => {
    const created = await server.call("POST", "/api/workspaces", { token, json: { name: `fix-${Date.now()}` } });
    fixWs = created.body.id;
    remote = bareRemote({ "shared.txt": "base\n", "other.txt": "other\n" }, (clone) => {
      base = git(clone, "rev-parse", "HEAD");
      // A branch that belongs to no task, then main moves on, changing the line the tasks' branches change.
      git(clone, "checkout", "-q", "-b", "release/x", "main");
      commitFile(clone, "other.txt", "release\n");
      git(clone, "push", "-q", "origin", "release/x");
      git(clone, "checkout", "-q", "main");
      commitFile(clone, "shared.txt", "main\n");
      git(clone, "push", "-q", "origin", "main");
    });
    work = path.join(path.dirname(remote), "work");
    await connect(remote, fixWs);
  });

  /** A task on its own branch tb/<number>, pushed to the remote from the old base with `text` in `file`. */
  async function conflicted(title: string, file = "shared.txt", text = "task\n") {
    const task = await numbered(title);
    const branch = `tb/${task.number}`;
    git(work, "checkout", "-q", "-b", branch, base);
    commitFile(work, file, text);
    git(work, "push", "-q", "origin", branch);
    git(work, "checkout", "-q", "main");
    await mark(task.id, branch);
    return { ...task, branch };
  }

  /** A task in progress, with its number (its own branch is tb/<number>…). */
  async function numbered(title: string): Promise<{ id: string; number: number }> {
    const created = await server.call("POST", `${ws(fixWs)}/tasks`, { token, json: { title, status: "in_progress" } });
    expect(created.status).toBe(201);
    return created.body;
  }

  async function mark(taskId: string, branch: string) {
    const patched = await server.call("PATCH", `${ws(fixWs)}/tasks/${taskId}`, { token, json: { branch, has_merge_conflict: true } });
    expect(patched.body).toMatchObject({ branch, has_merge_conflict: true });
  }

  const fix = (taskId: string) => server.call("POST", `${ws(fixWs)}/tasks/${taskId}/fix-conflicts`, { token });
  const heads = () => gitBare(remote, "for-each-ref", "--format=%(refname) %(objectname)", "refs/heads");

  it("gives the agent the conflicted files, commits its resolution and pushes it to the remote", async () => {
    const task = await conflicted("resolve merged line");
    const started = await fix(task.id);
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ task_id: task.id, keep_status: false });
    const done = await finished(server.call, token, fixWs, started.body.id);
    expect(done).toMatchObject({ status: "succeeded", report: "resolve shared.txt\n" });

    expect(gitBare(remote, "show", `${task.branch}:shared.txt`)).toBe("merged line");
    expect(gitBare(remote, "merge-base", "--is-ancestor", "main", task.branch)).toBe("");
    expect(gitBare(remote, "log", "-1", "--format=%P", task.branch).split(" ")).toHaveLength(2);
    const after = await server.call("GET", `${ws(fixWs)}/tasks/${task.id}`, { token });
    expect(after.body).toMatchObject({ has_merge_conflict: false, status: "in_review", latest_run_status: "succeeded" });
    const log = JSON.stringify((await server.call("GET", `${ws(fixWs)}/executions/${done.id}/log`, { token })).body);
    expect(log).toContain("conflicted: shared.txt");
    expect(log).toContain(`Pushed ${task.branch}`);
  });

  it("pushes a clean merge without starting the agent, and says so (keep_status keeps the column)", async () => {
    const task = await conflicted("fail if the agent runs", "other.txt", "tidy\n");
    const started = await server.call("POST", `${ws(fixWs)}/tasks/${task.id}/fix-conflicts?keep_status=true`, { token });
    expect(started.body.keep_status).toBe(true);
    const done = await finished(server.call, token, fixWs, started.body.id);
    expect(done.status).toBe("succeeded");
    expect(done.report).toBe(`git merged main into ${task.branch} without conflicts and the merge was pushed; the agent was not needed.`);
    expect(gitBare(remote, "merge-base", "--is-ancestor", "main", task.branch)).toBe("");
    expect(gitBare(remote, "show", `${task.branch}:other.txt`)).toBe("tidy");
    // No agent, so no conclusion: the merged branch's diff was stored by the fix itself.
    const diff = await server.call("GET", `${ws(fixWs)}/tasks/${task.id}/diff`, { token });
    expect(diff.body).toMatchObject({ commit_sha: gitBare(remote, "rev-parse", task.branch), files: [{ path: "other.txt" }] });
    expect((await server.call("GET", `${ws(fixWs)}/tasks/${task.id}`, { token })).body).toMatchObject({
      has_merge_conflict: false,
      status: "in_progress",
    });
  });

  it("answers 409 while a fix runs; a cancelled fix aborts its merge and keeps the conflict", async () => {
    const task = await conflicted("sleep");
    const before = gitBare(remote, "rev-parse", task.branch);
    const first = await fix(task.id);
    expect(first.status).toBe(202);
    expect(await fix(task.id)).toMatchObject({ status: 409, body: { detail: "An execution of this task is already running" } });
    await eventually(async () => {
      const log = await server.call("GET", `${ws(fixWs)}/executions/${first.body.id}/log`, { token });
      return JSON.stringify(log.body).includes("sleeping") ? true : undefined;
    });
    const cancelled = await server.call("POST", `${ws(fixWs)}/executions/${first.body.id}/cancel`, { token });
    expect(cancelled.body.status).toBe("cancelled");
    const dir = workdir(task.id, fixWs);
    await eventually(async () => (git(dir, "status", "--porcelain") === "" ? true : undefined));
    expect(fs.existsSync(path.resolve(dir, git(dir, "rev-parse", "--git-path", "MERGE_HEAD")))).toBe(false);
    expect(gitBare(remote, "rev-parse", task.branch)).toBe(before);
    expect((await server.call("GET", `${ws(fixWs)}/tasks/${task.id}`, { token })).body.has_merge_conflict).toBe(true);
  });

  it("fails in words when markers remain, aborts the merge, pushes nothing and keeps the conflict", async () => {
    const task = await conflicted("leave the markers", "shared.txt", "stuck\n");
    const before = gitBare(remote, "rev-parse", task.branch);
    const done = await finished(server.call, token, fixWs, (await fix(task.id)).body.id);
    expect(done).toMatchObject({ status: "failed", error_message: "Conflict markers remain in shared.txt; the merge was aborted" });
    expect(gitBare(remote, "rev-parse", task.branch)).toBe(before);
    const dir = workdir(task.id, fixWs);
    expect(fs.existsSync(path.join(root, "work", fixWs, task.id, ".git"))).toBe(true);
    expect(git(dir, "status", "--porcelain")).toBe("");
    expect(fs.readFileSync(path.join(dir, "shared.txt"), "utf8")).toBe("stuck\n");
    const after = await server.call("GET", `${ws(fixWs)}/tasks/${task.id}`, { token });
    expect(after.body).toMatchObject({ has_merge_conflict: true, latest_run_status: "failed" });
  });

  it("never creates a branch: one missing on the remote fails the run in words and the remote gains nothing", async () => {
    const task = await numbered("resolve nothing");
    const branch = `tb/${task.number}-not-pushed`;
    await mark(task.id, branch);
    const before = heads();
    const started = await fix(task.id);
    expect(started.status).toBe(202);
    const done = await finished(server.call, token, fixWs, started.body.id);
    expect(done).toMatchObject({
      status: "failed",
      error_message: `The branch ${branch} does not exist on ${remote}: a conflict fix merges into the pull request's branch and never creates one`,
    });
    expect(heads()).toBe(before);
    expect((await server.call("GET", `${ws(fixWs)}/tasks/${task.id}`, { token })).body.has_merge_conflict).toBe(true);
  });

  it("pushes only the task's own branch: the default branch, another task's or an unrelated one is refused in words", async () => {
    const other = await conflicted("someone else's");
    const before = heads();
    const notOwn = (branch: string, number: number) =>
      `${branch} is not the task's own branch (tb/${number}-…, or the head branch of the pull request GitHub linked to it): the board does not push it`;
    for (const [branch, reason] of [
      ["main", () => "main is the repository's default branch: the board never pushes it"],
      ["release/x", (number: number) => notOwn("release/x", number)],
      [other.branch, (number: number) => notOwn(other.branch, number)],
    ] as const) {
      const task = await numbered("resolve taken over");
      await mark(task.id, branch);
      const refused = await fix(task.id);
      expect(refused, branch).toMatchObject({ status: 409, body: { detail: reason(task.number) } });
      expect((await server.call("GET", `${ws(fixWs)}/tasks/${task.id}/runs`, { token })).body).toEqual([]);
    }
    expect(heads()).toBe(before);
  });

  it.each([
    ["release/x", /^release\/x is not the task's own branch/],
    ["main", /^main is the repository's default branch: the board never pushes it$/],
  ])("refuses the push when the task's branch is changed to %s while its agent resolves", async (elsewhere, reason) => {
    // The signal file is in the task's worktree: the agent's sandbox shows it nothing else of the machine.
    const go = `go-${Date.now()}`;
    const task = await conflicted(`await ${go} merged line`);
    const before = heads();
    const started = await fix(task.id);
    expect(started.status).toBe(202);
    await eventually(async () => {
      const log = await server.call("GET", `${ws(fixWs)}/executions/${started.body.id}/log`, { token });
      return JSON.stringify(log.body).includes("awaiting") ? true : undefined;
    });
    // A person (or a script) points the task at another branch before the agent is done.
    expect((await server.call("PATCH", `${ws(fixWs)}/tasks/${task.id}`, { token, json: { branch: elsewhere } })).status).toBe(200);
    fs.writeFileSync(path.join(workdir(task.id, fixWs), go), "");
    const done = await finished(server.call, token, fixWs, started.body.id);
    expect(done.status).toBe("failed");
    expect(done.error_message).toMatch(reason);
    expect(heads()).toBe(before);
    expect((await server.call("GET", `${ws(fixWs)}/tasks/${task.id}`, { token })).body.has_merge_conflict).toBe(true);
  });

  it("does not hang on a FIFO the agent left in place of a conflicted file: the fix fails in words, the server keeps serving", async () => {
    const task = await conflicted("fifo");
    const before = heads();
    const started = await fix(task.id);
    expect(started.status).toBe(202);
    // Answered while the check runs: a blocking read of the FIFO would stop every request.
    const done = await finished(server.call, token, fixWs, started.body.id);
    expect(done.status).toBe("failed");
    expect(done.error_message).toMatch(/^The merge could not be committed: /);
    expect(heads()).toBe(before);
    expect((await server.call("GET", `${ws(fixWs)}/tasks/${task.id}`, { token })).body.has_merge_conflict).toBe(true);
  });

  it("answers 409 in words when the task has no branch", async () => {
    const noBranch = await newTask(server.call, token, fixWs, { title: "no branch", pr_url: "https://github.com/acme/app/pull/1" });
    await server.call("PATCH", `${ws(fixWs)}/tasks/${noBranch.id}`, { token, json: { has_merge_conflict: true } });
    const refused = await fix(noBranch.id);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/^The task has no branch to merge into/);
  });
});
