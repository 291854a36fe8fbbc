import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, newTask, type EngineServer, type Store } from "../helpers/engine";
import { git, startWorktreeServer, worktreeApi } from "../helpers/worktrees";

// Runs in per-task git worktrees, over HTTP, against bare repositories on disk as remotes: the
// branch a first run gives a task, the commit and changes recorded on the run, the diff route and its
// byte budget, and the clean-up of worktrees. The agent is tests/fixtures/git-agent.mjs.

let store: Store;
let server: EngineServer;
let token: string;
let wsId: string;
let root: string;

beforeAll(async () => {
  ({ store, server, token, wsId, root } = await startWorktreeServer("worktrees"));
}, 180_000); // a fresh server on a busy machine

afterAll(async () => {
  await server?.stop();
  await store?.drop();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

const { ws, workdir, run, connect, otherUser, bareRemote } = worktreeApi(() => ({ server, token, wsId, root }));

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
