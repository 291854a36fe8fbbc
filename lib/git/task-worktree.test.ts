import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  branchChanges,
  changedFiles,
  commitAll,
  concludeMerge,
  containsRef,
  mergeDefaultBranch,
  mergeInProgress,
  refSha,
  resetTo,
  syncClone,
  taskBranchName,
} from "@/lib/git/task-worktree";
import { pushRef } from "@/lib/git/task-branch-git";
import { changedFileSizes } from "@/lib/git/changed-file-sizes";
import { filesWithMarkers } from "@/lib/git/conflict-markers";
import { computeBranchDiff } from "@/lib/git/branch-diff";
import { parseUnifiedDiff } from "@/lib/git/parse-diff";
import { rehunk } from "@/lib/git/rehunk";
import { ensureTaskRepository, fetchTaskBranch, removeTaskRepository, taskPlace } from "@/lib/git/task-repository";

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
    const wt_first = await worktreeOf(clone, first, "tb/1-first");
    await worktreeOf(clone, second, "tb/2-second");

    fs.writeFileSync(path.join(first, "src/a.txt"), "one\nTWO\nthree\n");
    fs.writeFileSync(path.join(first, "new.txt"), "new\n");
    expect(await commitAll(wt_first, "Run 1")).toBe(true);
    expect(await commitAll(wt_first, "nothing")).toBe(false);
    expect(fs.readFileSync(path.join(second, "src/a.txt"), "utf8")).toBe("one\ntwo\n");

    const changes = await branchChanges(wt_first, "main");
    expect(changes).toMatchObject({ filesChanged: 2, linesAdded: 3, linesRemoved: 1 });
    expect(changes.commitSha).toMatch(/^[0-9a-f]{40}$/);
    const diff = await computeBranchDiff(wt_first.cloneDir, "tb/1-first", "refs/heads/tb/1-first", "main", {
      maxBytes: 1e6,
      maxFileBytes: 1e6,
    });
    expect(diff.patch).toContain("+TWO");
    expect(diff.patch).toContain("diff --git a/new.txt b/new.txt");
    expect(gitIn(first, "rev-parse", "--abbrev-ref", "HEAD")).toBe("tb/1-first");
  });

  it("reuses the worktree, and recreates a deleted one from its branch without losing commits", async () => {
    const { remote, root } = bareRemote({ "a.txt": "a\n" });
    const clone = path.join(root, "clone");
    await syncClone(remote, clone);
    const dir = path.join(root, "wt", "7");
    const wt_dir = await worktreeOf(clone, dir, "tb/7-x");
    fs.writeFileSync(path.join(dir, "b.txt"), "b\n");
    await commitAll(wt_dir, "work");
    fs.writeFileSync(path.join(dir, "scratch.txt"), "uncommitted\n");
    await worktreeOf(clone, dir, "tb/7-x");
    expect(fs.existsSync(path.join(dir, "scratch.txt"))).toBe(true);

    // The run's work goes back into the clone; a removed task repository is made again from there.
    await fetchTaskBranch({ clone, gitDir: wt_dir.cloneDir, dir }, "tb/7-x", (await refSha(wt_dir, "HEAD"))!);
    removeTaskRepository({ gitDir: wt_dir.cloneDir, dir });
    expect(fs.existsSync(dir)).toBe(false);
    await worktreeOf(clone, dir, "tb/7-x");
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
    await worktreeOf(clone, dir, "feature/x");
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
    const wt_dir = await worktreeOf(clone, dir, "tb/4-change");
    const merge = await mergeDefaultBranch(wt_dir, "tb/4-change", "main");
    expect(merge).toEqual({ state: "conflicted", files: ["shared.txt"] });
    expect(await filesWithMarkers(dir, ["shared.txt"])).toEqual(["shared.txt"]);
    await expect(concludeMerge(wt_dir, ["shared.txt"])).rejects.toThrow("Conflict markers remain in shared.txt");

    fs.writeFileSync(path.join(dir, "shared.txt"), "line 1\nfrom the task\nfrom main\nline 3\n");
    await concludeMerge(wt_dir, ["shared.txt"]);
    await pushRef(wt_dir.cloneDir, { url: remote, access: { config: [] } }, "tb/4-change");
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
    const wt_dir = await worktreeOf(clone, dir, "tb/5-x");
    expect(await mergeDefaultBranch(wt_dir, "tb/5-x", "main")).toEqual({ state: "clean" });
    expect(fs.readFileSync(path.join(dir, "b.txt"), "utf8")).toBe("B\n");
  });

  it("reads a branch's diff from the clone: added, deleted, renamed, binary and unusual paths", async () => {
    const { remote, root } = bareRemote({ "keep.txt": "1\n2\n3\n", "old name.txt": "same\ncontent\nhere\n", "gone.txt": "bye\n" });
    const clone = path.join(root, "clone");
    await syncClone(remote, clone);
    const dir = path.join(root, "wt", "6");
    const wt_dir = await worktreeOf(clone, dir, "tb/6-diff");
    fs.writeFileSync(path.join(dir, "keep.txt"), "1\ntwo\n3\n");
    fs.renameSync(path.join(dir, "old name.txt"), path.join(dir, "new näme.txt"));
    fs.rmSync(path.join(dir, "gone.txt"));
    fs.writeFileSync(path.join(dir, "logo.bin"), Buffer.from([0, 1, 2, 0, 255]));
    fs.writeFileSync(path.join(dir, 'quote".txt'), "q\n");
    await commitAll(wt_dir, "changes");

    const diff = await computeBranchDiff(wt_dir.cloneDir, "tb/6-diff", "refs/heads/tb/6-diff", "main", {
      maxBytes: 1e6,
      maxFileBytes: 1e6,
    });
    const { baseSha, commitSha: headSha, files } = diff;
    const parsed = parseUnifiedDiff(diff.patch);
    const byPath = Object.fromEntries(parsed.map((file) => [file.path, { ...file, hunks: rehunk(file.hunks, 1, 50) }]));
    expect(files.map((file) => [file.path, file.old_path, file.status, file.additions, file.deletions, file.binary])).toEqual([
      ["gone.txt", null, "deleted", 0, 1, false],
      ["keep.txt", null, "modified", 1, 1, false],
      ["logo.bin", null, "added", 0, 0, true],
      ["new näme.txt", "old name.txt", "renamed", 0, 0, false],
      ['quote".txt', null, "added", 1, 0, false],
    ]);
    expect(byPath["gone.txt"].status).toBe("deleted");
    expect(files.find((file) => file.path === "logo.bin")!.status).toBe("added");
    expect(byPath["new näme.txt"].status).toBe("renamed");
    expect(byPath['quote".txt'].status).toBe("added");
    expect(byPath["keep.txt"].hunks).toEqual([
      {
        header: "@@ -1,3 +1,3 @@",
        lines: [
          { type: "context", text: "1", old_line: 1, new_line: 1 },
          { type: "del", text: "2", old_line: 2, new_line: null },
          { type: "add", text: "two", old_line: null, new_line: 2 },
          { type: "context", text: "3", old_line: 3, new_line: 3 },
        ],
      },
    ]);
    // Each file's weight, old blob plus new, from the object database, keyed by the new path.
    expect(Object.fromEntries(await changedFileSizes(wt_dir.cloneDir, baseSha, headSha))).toEqual({
      "gone.txt": { bytes: 4, status: "deleted" },
      "keep.txt": { bytes: 6 + 8, status: "modified" },
      "logo.bin": { bytes: 5, status: "added" },
      "new näme.txt": { bytes: 18 + 18, status: "renamed" },
      'quote".txt': { bytes: 2, status: "added" },
    });
  });

  it("tells a merge in progress, the files it touched, and puts a branch back", async () => {
    const { remote, root, work } = bareRemote({ "s.txt": "base\n" });
    gitIn(work, "checkout", "-q", "-b", "tb/8-x");
    fs.writeFileSync(path.join(work, "s.txt"), "task\n");
    gitIn(work, "commit", "-q", "-am", "task");
    gitIn(work, "push", "-q", "origin", "tb/8-x");
    gitIn(work, "checkout", "-q", "main");
    fs.writeFileSync(path.join(work, "s.txt"), "main\n");
    gitIn(work, "commit", "-q", "-am", "main");
    gitIn(work, "push", "-q", "origin", "main");
    const clone = path.join(root, "clone");
    await syncClone(remote, clone);
    const dir = path.join(root, "wt", "8");
    const wt_dir = await worktreeOf(clone, dir, "tb/8-x");
    const before = (await refSha(wt_dir, "HEAD"))!;
    expect(await mergeInProgress(wt_dir)).toBe(false);
    expect(await containsRef(wt_dir, "refs/remotes/origin/main")).toBe(false);
    await mergeDefaultBranch(wt_dir, "tb/8-x", "main");
    expect(await mergeInProgress(wt_dir)).toBe(true);
    fs.writeFileSync(path.join(dir, "extra.txt"), "new\n");
    expect((await changedFiles(wt_dir)).sort()).toEqual(["extra.txt", "s.txt"]);
    fs.writeFileSync(path.join(dir, "s.txt"), "both\n");
    await concludeMerge(wt_dir, ["s.txt"]);
    expect(await containsRef(wt_dir, "refs/remotes/origin/main")).toBe(true);
    await resetTo(wt_dir, before);
    expect(await refSha(wt_dir, "HEAD")).toBe(before);
    expect(await refSha(wt_dir, "refs/heads/no-such-branch")).toBeNull();
  });

  it("names branches tb/<number>-<slug>", () => {
    expect(taskBranchName(12, "Fix the Login page — über fast!")).toBe("tb/12-fix-the-login-page-uber-fast");
    expect(taskBranchName(3, "???")).toBe("tb/3");
  });
});

/** The task's own repository for the worktree `dir` (its git directory beside the worktrees), as the runner makes it. */
async function worktreeOf(clone: string, dir: string, branch: string) {
  const repo = { clone, gitDir: path.join(path.dirname(path.dirname(dir)), "task-git", path.basename(dir)), dir };
  await ensureTaskRepository(repo, branch, "main");
  return taskPlace(repo);
}

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
