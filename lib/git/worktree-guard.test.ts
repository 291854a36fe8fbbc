import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { GitRefused } from "@/lib/git/git-refused";
import { runGit } from "@/lib/git/run-git";
import { syncClone } from "@/lib/git/task-worktree";
import { ensureTaskRepository, taskPlace } from "@/lib/git/task-repository";
import { repositoryConfigProblems, restoreGitfile } from "@/lib/git/worktree-guard";

// The checks before git runs, against real git: a configuration found clean is not read again until
// it changes, and any change is seen at the next command; a tampered `.git` is refused, then restored.

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "worktree-guard-")));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const plain = (cwd: string, ...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd });

describe("worktree guard", () => {
  it("sees a configuration change made after a clean check, and refuses and restores a tampered .git", async () => {
    const seed = path.join(root, "seed");
    plain(root, "init", "-q", "-b", "main", seed);
    plain(seed, "commit", "-q", "--allow-empty", "-m", "seed");
    const clone = path.join(root, "clone");
    await syncClone(seed, clone);
    const dir = path.join(root, "wt");
    const repo = { clone, gitDir: path.join(root, "task-git"), dir };
    await ensureTaskRepository(repo, "tb/1", "main");
    const worktree = taskPlace(repo);
    expect((await runGit(worktree, ["rev-parse", "--abbrev-ref", "HEAD"])).trim()).toBe("tb/1");
    expect((await runGit(worktree, ["rev-parse", "--abbrev-ref", "HEAD"])).trim()).toBe("tb/1");

    plain(dir, "config", "core.sshCommand", "touch /tmp/never");
    await expect(runGit(worktree, ["status"])).rejects.toThrow(/holds core\.sshcommand/);
    plain(dir, "config", "--unset", "core.sshCommand");
    await runGit(worktree, ["status"]);

    const dotGit = fs.readFileSync(path.join(dir, ".git"), "utf8");
    fs.writeFileSync(path.join(dir, ".git"), `gitdir: ${path.join(root, "elsewhere")}\n`);
    await expect(runGit(worktree, ["status"])).rejects.toBeInstanceOf(GitRefused);
    expect(restoreGitfile(worktree)).toBe(true);
    expect(fs.readFileSync(path.join(dir, ".git"), "utf8")).toBe(dotGit);
    expect(restoreGitfile(worktree)).toBe(false);
    await runGit(worktree, ["status"]);
  });

  it("allows only what git clone and worktree add write", () => {
    const listed = [
      ["local", "core.bare\nfalse"],
      ["local", "branch.tb/1-x.merge\nrefs/heads/tb/1-x"],
      ["command", "core.hookspath\n/x"],
      ["worktree", "core.fsmonitor\n/x"],
      ["local", "url.ext::sh.insteadof\nhttps://"],
      ["local", "include.path\n/tmp/x"],
    ]
      .flat()
      .join("\0");
    expect(repositoryConfigProblems(`${listed}\0`)).toEqual(["core.fsmonitor", "url.ext::sh.insteadof", "include.path"]);
  });
});
