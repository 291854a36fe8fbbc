import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineServer, eventually, finished, newStore, newTask, workspaceOn, type EngineServer, type Store } from "../helpers/engine";

// Runs in per-task git worktrees, over HTTP, against bare repositories on disk as remotes: the
// branch a first run gives a task, the commit and changes recorded on the run, the diff route,
// fix-conflicts that really merges and pushes (conflicted, clean, and cannot complete) only the
// task's own branch and never creates one, and the clean-up of worktrees. The agent is tests/fixtures/git-agent.mjs.

const GIT_AGENT = `${process.execPath} ${path.resolve(import.meta.dirname, "../fixtures/git-agent.mjs")}`;

let store: Store;
let server: EngineServer;
let token: string;
let wsId: string;
let root: string;

beforeAll(async () => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "worktrees-api-")));
  store = await newStore("worktrees");
  server = await engineServer(store, {
    AGENT_COMMAND: GIT_AGENT,
    AGENT_LOG_FLUSH_MS: "100",
    AGENT_WORKDIR: path.join(root, "work", "{workspace_id}", "{task_id}"),
    SCHEDULER_INTERVAL_MS: "200",
  });
  ({ token, wsId } = await workspaceOn(server));
}, 180_000); // a fresh server on a busy machine

afterAll(async () => {
  await server?.stop();
  await store?.drop();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

const ws = (id = wsId) => `/api/workspaces/${id}`;
const workdir = (taskId: string, id = wsId) => path.join(root, "work", id, taskId);

async function run(taskId: string, instructions: string, id = wsId) {
  const started = await server.call("POST", `${ws(id)}/tasks/${taskId}/runs`, { token, json: { instructions } });
  expect(started.status).toBe(202);
  return finished(server.call, token, id, started.body.id);
}

async function connect(remote: string, id = wsId, extra: Record<string, unknown> = {}) {
  const connected = await server.call("PUT", `${ws(id)}/repository`, { token, json: { url: remote, ...extra } });
  expect(connected.status).toBe(200);
  return connected.body;
}

describe("runs in task worktrees", () => {
  let remote: string;
  let first: { id: string };

  beforeAll(async () => {
    remote = bareRemote({ "README.md": "hello\n", "src/a.txt": "one\ntwo\n" });
    await connect(remote);
  });

  it("gives the task its branch and worktree, commits the agent's work and records it on the run", async () => {
    first = await newTask(server.call, token, wsId, { title: "Add a greeting!" });
    const done = await run(first.id, "write src/a.txt ONE");
    expect(done.status).toBe("succeeded");

    const task = await server.call("GET", `${ws()}/tasks/${first.id}`, { token });
    expect(task.body.branch).toMatch(/^tb\/\d+-add-a-greeting$/);
    const runs = await server.call("GET", `${ws()}/tasks/${first.id}/runs`, { token });
    expect(runs.body[0]).toMatchObject({ files_changed: 1, lines_added: 1, lines_removed: 2 });
    expect(runs.body[0].commit_sha).toMatch(/^[0-9a-f]{40}$/);
    expect(task.body.task_runs[0]).toMatchObject({ commit_sha: runs.body[0].commit_sha, files_changed: 1 });

    const dir = workdir(first.id);
    expect(git(dir, "rev-parse", "--abbrev-ref", "HEAD")).toBe(task.body.branch);
    expect(git(dir, "log", "-1", "--format=%an <%ae>")).toBe("Taskboard <taskboard@localhost>");
    expect(git(dir, "rev-parse", "HEAD")).toBe(runs.body[0].commit_sha);
    expect(git(dir, "status", "--porcelain")).toBe("");
    const log = await server.call("GET", `${ws()}/executions/${done.id}/log`, { token });
    expect(JSON.stringify(log.body)).toContain(`Made the task's worktree on ${task.body.branch}`);
  });

  it("serves the branch's diff as files, hunks and lines", async () => {
    const diff = await server.call("GET", `${ws()}/tasks/${first.id}/diff`, { token });
    expect(diff.status).toBe(200);
    const runs = await server.call("GET", `${ws()}/tasks/${first.id}/runs`, { token });
    expect(diff.body).toEqual({
      branch: expect.stringMatching(/^tb\//),
      base: "main",
      commit_sha: runs.body[0].commit_sha,
      files_changed: 1,
      lines_added: 1,
      lines_removed: 2,
      truncated: false,
      files: [
        {
          path: "src/a.txt",
          old_path: null,
          status: "modified",
          additions: 1,
          deletions: 2,
          binary: false,
          summary: null,
          hunks: [
            {
              header: "@@ -1,2 +1 @@",
              lines: [
                { type: "del", text: "one", old_line: 1, new_line: null },
                { type: "del", text: "two", old_line: 2, new_line: null },
                { type: "add", text: "ONE", old_line: null, new_line: 1 },
              ],
            },
          ],
        },
      ],
    });
  });

  it("keeps tasks apart, continues in the same worktree, and recreates a deleted one from the branch", async () => {
    const second = await newTask(server.call, token, wsId, { title: "Second" });
    expect((await run(second.id, "write notes/new.md fresh")).status).toBe("succeeded");
    expect(fs.existsSync(path.join(workdir(first.id), "notes/new.md"))).toBe(false);
    expect(fs.readFileSync(path.join(workdir(first.id), "src/a.txt"), "utf8")).toBe("ONE\n");
    const added = await server.call("GET", `${ws()}/tasks/${second.id}/diff`, { token });
    expect(added.body.files).toMatchObject([{ path: "notes/new.md", status: "added", additions: 1, deletions: 0 }]);

    expect((await run(first.id, "write docs/more.md more")).status).toBe("succeeded");
    const runs = await server.call("GET", `${ws()}/tasks/${first.id}/runs`, { token });
    expect(runs.body.map((r: { files_changed: number }) => r.files_changed)).toEqual([2, 1]);

    fs.rmSync(workdir(first.id), { recursive: true, force: true });
    expect((await run(first.id, "write docs/third.md third")).status).toBe("succeeded");
    expect(fs.readFileSync(path.join(workdir(first.id), "docs/more.md"), "utf8")).toBe("more\n");
    const after = await server.call("GET", `${ws()}/tasks/${first.id}/runs`, { token });
    expect(after.body[0].files_changed).toBe(3);

    const repository = await server.call("GET", `${ws()}/repository`, { token });
    expect(repository.body).toMatchObject({ worktree_count: 2, worktree_retention_days: 7 });
    expect(repository.body.worktree_disk_bytes).toBeGreaterThan(0);
  });

  it("removes the worktrees of deleted tasks and of tasks done longer than the retention, keeping their branches", async () => {
    const keep = await newTask(server.call, token, wsId, { title: "Still open" });
    expect((await run(keep.id, "write open.txt open")).status).toBe("succeeded");
    const task = await server.call("GET", `${ws()}/tasks/${first.id}`, { token });
    await connect(remote, wsId, { worktree_retention_days: 0 });
    expect((await server.call("PATCH", `${ws()}/tasks/${first.id}`, { token, json: { status: "done" } })).status).toBe(200);
    const doomed = await newTask(server.call, token, wsId, { title: "Deleted soon" });
    expect((await run(doomed.id, "write gone.txt gone")).status).toBe("succeeded");
    expect((await server.call("DELETE", `${ws()}/tasks/${doomed.id}`, { token })).status).toBe(204);

    await eventually(async () => (!fs.existsSync(workdir(first.id)) && !fs.existsSync(workdir(doomed.id)) ? true : undefined));
    expect(fs.existsSync(workdir(keep.id))).toBe(true);
    const clone = path.join(store.dataDir, "repos", wsId);
    expect(git(clone, "rev-parse", "--verify", `refs/heads/${task.body.branch}`)).toMatch(/^[0-9a-f]{40}$/);
    const repository = await eventually(async () => {
      const response = await server.call("GET", `${ws()}/repository`, { token });
      return response.body.worktree_count === 2 ? response.body : undefined;
    });
    expect(repository.worktree_retention_days).toBe(0);
    // The diff is still served from the branch after its worktree is gone.
    expect((await server.call("GET", `${ws()}/tasks/${first.id}/diff`, { token })).body.files_changed).toBe(3);
  });
});

describe("GET /tasks/{task_id}/diff", () => {
  it("answers 401 without or with bad credentials, 404 to outsiders and for unknown tasks, 409 without branch or repository, 422 on a bad context", async () => {
    const task = await newTask(server.call, token, wsId, { title: "No run yet" });
    const url = `${ws()}/tasks/${task.id}/diff`;
    expect((await server.call("GET", url)).status).toBe(401);
    expect((await server.call("GET", url, { token: "tb_nonsense" })).status).toBe(401);
    const outsider = await otherUser();
    expect(await server.call("GET", url, { token: outsider })).toMatchObject({ status: 404 });
    expect((await server.call("GET", `${ws()}/tasks/missing/diff`, { token })).body).toEqual({ detail: "Task not found" });

    const noBranch = await server.call("GET", url, { token });
    expect(noBranch).toMatchObject({ status: 409, body: { detail: "The task has no branch yet: its first run creates one" } });
    const other = await server.call("POST", "/api/workspaces", { token, json: { name: `bare-${Date.now()}` } });
    const elsewhere = await newTask(server.call, token, other.body.id, { title: "x" });
    await server.call("PATCH", `${ws(other.body.id)}/tasks/${elsewhere.id}`, { token, json: { branch: "feature/x" } });
    const noRepository = await server.call("GET", `${ws(other.body.id)}/tasks/${elsewhere.id}/diff`, { token });
    expect(noRepository).toMatchObject({ status: 409, body: { detail: "The workspace has no repository, so the task has no diff" } });

    for (const context of ["abc", "-1", "51"]) {
      const bad = await server.call("GET", `${url}?context=${context}`, { token });
      expect(bad.status, context).toBe(422);
      expect(bad.body.detail[0].loc).toEqual(["query", "context"]);
    }
  });
});

describe("GET /tasks/{task_id}/diff within its byte budget", () => {
  it("summarises a file too large to show, a one-line file of 4 MB, without loading it, and shows the others", async () => {
    const created = await server.call("POST", "/api/workspaces", { token, json: { name: `huge-${Date.now()}` } });
    const hugeWs = created.body.id as string;
    const big = 4 * 1024 * 1024 + 1;
    const remote = bareRemote({ "small.txt": "one\n" }, (work) => {
      git(work, "checkout", "-q", "-b", "feature/huge");
      // One line, no newline: 20,000 lines of budget would let it through whole.
      fs.writeFileSync(path.join(work, "huge.min.js"), "x".repeat(big));
      fs.writeFileSync(path.join(work, "small.txt"), "ONE\n");
      git(work, "add", "-A");
      git(work, "commit", "-q", "-m", "huge");
      git(work, "push", "-q", "origin", "feature/huge");
    });
    await connect(remote, hugeWs);
    const task = await newTask(server.call, token, hugeWs, { title: "huge" });
    await server.call("PATCH", `${ws(hugeWs)}/tasks/${task.id}`, { token, json: { branch: "feature/huge" } });
    // A run fetches the branch into the server's clone, and adds a small file of its own.
    expect((await run(task.id, "write notes.md noted", hugeWs)).status).toBe("succeeded");

    const response = await fetch(`${server.url}${ws(hugeWs)}/tasks/${task.id}/diff`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text.length, "the response holds a summary, not the file").toBeLessThan(10_000);
    const diff = JSON.parse(text);
    expect(diff.truncated).toBe(true);
    expect(diff.files).toEqual([
      expect.objectContaining({ path: "huge.min.js", status: "added", summary: `File too large to show: ${big} bytes`, hunks: [] }),
      expect.objectContaining({
        path: "notes.md",
        status: "added",
        summary: null,
        hunks: [expect.objectContaining({ header: "@@ -0,0 +1 @@" })],
      }),
      expect.objectContaining({
        path: "small.txt",
        summary: null,
        hunks: [expect.objectContaining({ lines: [expect.objectContaining({ text: "one" }), expect.objectContaining({ text: "ONE" })] })],
      }),
    ]);
  });
});

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

async function otherUser(): Promise<string> {
  const username = `outsider_${Date.now()}`;
  const created = await server.call("POST", "/api/users", { token, json: { username, password: "outsider-password-1" } });
  expect(created.status).toBe(201);
  const login = await server.call("POST", "/api/auth/login", { json: { username, password: "outsider-password-1" } });
  return login.body.access_token;
}

/** A bare repository with `files` on main; `more` may add branches through the work clone. */
function bareRemote(files: Record<string, string>, more?: (work: string) => void): string {
  const base = fs.mkdtempSync(path.join(root, "remote-"));
  const work = path.join(base, "work");
  const remote = path.join(base, "remote.git");
  execFileSync("git", ["init", "-q", "--bare", "-b", "main", remote]);
  execFileSync("git", ["init", "-q", "-b", "main", work]);
  git(work, "remote", "add", "origin", remote);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
    fs.writeFileSync(path.join(work, file), text);
  }
  git(work, "add", "-A");
  git(work, "commit", "-q", "-m", "seed");
  git(work, "push", "-q", "origin", "main");
  more?.(work);
  return remote;
}

function commitFile(work: string, file: string, text: string) {
  fs.writeFileSync(path.join(work, file), text);
  git(work, "commit", "-q", "-am", `${file}: ${text.trim()}`);
}

function git(dir: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: dir, encoding: "utf8" }).trim();
}

function gitBare(remote: string, ...args: string[]): string {
  return execFileSync("git", ["--git-dir", remote, ...args], { encoding: "utf8" }).trim();
}
