import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  branchChanges,
  branchDiff,
  commitAll,
  concludeMerge,
  ensureWorktree,
  filesWithMarkers,
  mergeDefaultBranch,
  pushBranch,
  removeWorktree,
  syncClone,
  taskBranchName,
} from "@/lib/git/task-worktree";

// Against real git: a bare repository on disk is the remote, as a hosted one would be.

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("task worktrees", () => {
  it("gives each task its own worktree and branch from the default branch, and reports the branch's changes", async () => {
    const { remote, root } = bareRemote({ "README.md": "hello\n", "src/a.txt": "one\ntwo\n" });
    const clone = path.join(root, "clone");
    await syncClone(remote, clone);
    const first = path.join(root, "wt", "1");
    const second = path.join(root, "wt", "2");
    await ensureWorktree(clone, first, "tb/1-first", "main");
    await ensureWorktree(clone, second, "tb/2-second", "main");

    fs.writeFileSync(path.join(first, "src/a.txt"), "one\nTWO\nthree\n");
    fs.writeFileSync(path.join(first, "new.txt"), "new\n");
    expect(await commitAll(first, "Run 1")).toBe(true);
    expect(await commitAll(first, "nothing")).toBe(false);
    expect(fs.readFileSync(path.join(second, "src/a.txt"), "utf8")).toBe("one\ntwo\n");

    const changes = await branchChanges(first, "main");
    expect(changes).toMatchObject({ filesChanged: 2, linesAdded: 3, linesRemoved: 1 });
    expect(changes.commitSha).toMatch(/^[0-9a-f]{40}$/);
    const diff = await branchDiff(first, "main");
    expect(diff).toContain("+TWO");
    expect(diff).toContain("diff --git a/new.txt b/new.txt");
    expect(gitIn(first, "rev-parse", "--abbrev-ref", "HEAD")).toBe("tb/1-first");
  });

  it("reuses the worktree, and recreates a deleted one from its branch without losing commits", async () => {
    const { remote, root } = bareRemote({ "a.txt": "a\n" });
    const clone = path.join(root, "clone");
    await syncClone(remote, clone);
    const dir = path.join(root, "wt", "7");
    await ensureWorktree(clone, dir, "tb/7-x", "main");
    fs.writeFileSync(path.join(dir, "b.txt"), "b\n");
    await commitAll(dir, "work");
    fs.writeFileSync(path.join(dir, "scratch.txt"), "uncommitted\n");
    await ensureWorktree(clone, dir, "tb/7-x", "main");
    expect(fs.existsSync(path.join(dir, "scratch.txt"))).toBe(true);

    await removeWorktree(clone, dir);
    expect(fs.existsSync(dir)).toBe(false);
    await ensureWorktree(clone, dir, "tb/7-x", "main");
    expect(fs.readFileSync(path.join(dir, "b.txt"), "utf8")).toBe("b\n");
  });

  it("checks out a branch that already exists on the remote (a PR branch made elsewhere)", async () => {
    const { remote, root, work } = bareRemote({ "a.txt": "a\n" });
    gitIn(work, "checkout", "-q", "-b", "feature/x");
    fs.writeFileSync(path.join(work, "x.txt"), "x\n");
    gitIn(work, "add", "-A");
    gitIn(work, "commit", "-q", "-m", "x");
    gitIn(work, "push", "-q", "origin", "feature/x");
    const clone = path.join(root, "clone");
    await syncClone(remote, clone);
    const dir = path.join(root, "wt", "3");
    await ensureWorktree(clone, dir, "feature/x", "main");
    expect(fs.readFileSync(path.join(dir, "x.txt"), "utf8")).toBe("x\n");
  });

  it("merges the default branch into a conflicted branch, refuses markers, and pushes the resolution", async () => {
    const { remote, root, work } = bareRemote({ "shared.txt": "line 1\nbase\nline 3\n" });
    // The task branch and main change the same line.
    gitIn(work, "checkout", "-q", "-b", "tb/4-change");
    fs.writeFileSync(path.join(work, "shared.txt"), "line 1\nfrom the task\nline 3\n");
    gitIn(work, "commit", "-q", "-am", "task change");
    gitIn(work, "push", "-q", "origin", "tb/4-change");
    gitIn(work, "checkout", "-q", "main");
    fs.writeFileSync(path.join(work, "shared.txt"), "line 1\nfrom main\nline 3\n");
    gitIn(work, "commit", "-q", "-am", "main change");
    gitIn(work, "push", "-q", "origin", "main");

    const clone = path.join(root, "clone");
    await syncClone(remote, clone);
    const dir = path.join(root, "wt", "4");
    await ensureWorktree(clone, dir, "tb/4-change", "main");
    const merge = await mergeDefaultBranch(clone, dir, "tb/4-change", "main");
    expect(merge).toEqual({ state: "conflicted", files: ["shared.txt"] });
    expect(await filesWithMarkers(dir, ["shared.txt"])).toEqual(["shared.txt"]);
    await expect(concludeMerge(dir, ["shared.txt"])).rejects.toThrow("Conflict markers remain in shared.txt");

    fs.writeFileSync(path.join(dir, "shared.txt"), "line 1\nfrom the task\nfrom main\nline 3\n");
    await concludeMerge(dir, ["shared.txt"]);
    await pushBranch(dir, "tb/4-change");
    expect(gitIn(remote, "show", "tb/4-change:shared.txt")).toBe("line 1\nfrom the task\nfrom main\nline 3");
    // The pushed branch now contains main: merging again is clean.
    expect(gitIn(remote, "merge-base", "--is-ancestor", "main", "tb/4-change")).toBe("");
  });

  it("says when the merge is clean without an agent", async () => {
    const { remote, root, work } = bareRemote({ "a.txt": "a\n", "b.txt": "b\n" });
    gitIn(work, "checkout", "-q", "-b", "tb/5-x");
    fs.writeFileSync(path.join(work, "a.txt"), "A\n");
    gitIn(work, "commit", "-q", "-am", "a");
    gitIn(work, "push", "-q", "origin", "tb/5-x");
    gitIn(work, "checkout", "-q", "main");
    fs.writeFileSync(path.join(work, "b.txt"), "B\n");
    gitIn(work, "commit", "-q", "-am", "b");
    gitIn(work, "push", "-q", "origin", "main");
    const clone = path.join(root, "clone");
    await syncClone(remote, clone);
    const dir = path.join(root, "wt", "5");
    await ensureWorktree(clone, dir, "tb/5-x", "main");
    expect(await mergeDefaultBranch(clone, dir, "tb/5-x", "main")).toEqual({ state: "clean" });
    expect(fs.readFileSync(path.join(dir, "b.txt"), "utf8")).toBe("B\n");
  });

  it("names branches tb/<number>-<slug>", () => {
    expect(taskBranchName(12, "Fix the Login page — über fast!")).toBe("tb/12-fix-the-login-page-uber-fast");
    expect(taskBranchName(3, "???")).toBe("tb/3");
  });
});

function bareRemote(files: Record<string, string>) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "git-test-")));
  dirs.push(root);
  const remote = path.join(root, "remote.git");
  const work = path.join(root, "seed");
  execFileSync("git", ["init", "-q", "--bare", "-b", "main", remote]);
  execFileSync("git", ["init", "-q", "-b", "main", work]);
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(work, name)), { recursive: true });
    fs.writeFileSync(path.join(work, name), text);
  }
  gitIn(work, "add", "-A");
  gitIn(work, "commit", "-q", "-m", "seed");
  gitIn(work, "remote", "add", "origin", remote);
  gitIn(work, "push", "-q", "origin", "main");
  return { root, remote, work };
}

function gitIn(dir: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=Test", "-c", "user.email=test@localhost", ...args], { cwd: dir, encoding: "utf8" }).trim();
}
