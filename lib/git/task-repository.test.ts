import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { GitRefused } from "@/lib/git/git-refused";
import { runGit } from "@/lib/git/run-git";
import { commitAll, refSha, syncClone } from "@/lib/git/task-worktree";
import { ensureTaskRepository, fetchTaskBranch, restoreTaskRepository, taskPlace, type TaskRepository } from "@/lib/git/task-repository";

// A task's own repository against real git (issue #35, finding 3): what one task's agent does to
// refs and objects in its repository never reaches the clone or another task's, and a `commondir`
// or alternates it plants is refused by the runner's git, then put back.

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "task-repository-")));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** git as the agent runs it inside its worktree (it finds its repository through `.git`). */
const agentGit = (dir: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=agent", "-c", "user.email=a@a", ...args], { cwd: dir, encoding: "utf8" }).trim();

async function setUp(): Promise<{ clone: string; four: TaskRepository; five: TaskRepository }> {
  const base = fs.mkdtempSync(path.join(root, "case-"));
  const seed = path.join(base, "seed");
  execFileSync("git", ["init", "-q", "-b", "main", seed]);
  agentGit(seed, "commit", "-q", "--allow-empty", "-m", "seed");
  const clone = path.join(base, "clone");
  await syncClone(seed, clone);
  const repo = (n: string) => ({ clone, gitDir: path.join(base, "task-git", n), dir: path.join(base, "work", n) });
  const four = repo("4");
  const five = repo("5");
  await ensureTaskRepository(four, "tb/4-x", "main");
  await ensureTaskRepository(five, "tb/5-y", "main");
  fs.writeFileSync(path.join(four.dir, "four.txt"), "four\n");
  await commitAll(taskPlace(four), "four's work");
  await fetchTaskBranch(four, "tb/4-x", (await refSha(taskPlace(four), "HEAD"))!);
  return { clone, four, five };
}

describe("a task's own repository", () => {
  it("keeps another task's agent away from its branch: update-ref and deleted objects stay in the agent's repository", async () => {
    const { clone, four, five } = await setUp();
    const fourTip = (await refSha({ cloneDir: clone }, "refs/heads/tb/4-x"))!;
    fs.writeFileSync(path.join(five.dir, "five.txt"), "five\n");
    agentGit(five.dir, "add", "-A");
    agentGit(five.dir, "commit", "-q", "-m", "five's work");
    const fiveTip = agentGit(five.dir, "rev-parse", "HEAD");
    // Task 5's agent points task 4's branch at its own commit and deletes every object it can write.
    agentGit(five.dir, "update-ref", "refs/heads/tb/4-x", fiveTip);
    expect(agentGit(five.dir, "rev-parse", "refs/heads/tb/4-x")).toBe(fiveTip);
    // Only the task's own branch, at the commit recorded, is ever taken back into the clone.
    await expect(fetchTaskBranch(five, "tb/5-y", fourTip)).rejects.toThrow(/moved after the run was recorded/);
    expect(await refSha({ cloneDir: clone }, "refs/heads/tb/5-y")).toBeNull();
    for (const entry of fs.readdirSync(path.join(five.gitDir, "objects"))) {
      if (entry !== "info") fs.rmSync(path.join(five.gitDir, "objects", entry), { recursive: true, force: true });
    }
    expect(await refSha({ cloneDir: clone }, "refs/heads/tb/4-x")).toBe(fourTip);
    expect(await refSha(taskPlace(four), "refs/heads/tb/4-x")).toBe(fourTip);
    expect(await runGit(taskPlace(four), ["cat-file", "-t", fourTip])).toBe("commit\n");
  });

  it("refuses a planted commondir or .git and puts back the alternates", async () => {
    const { clone, five } = await setUp();
    fs.writeFileSync(path.join(five.gitDir, "commondir"), path.join(clone, ".git"));
    await expect(runGit(taskPlace(five), ["status"])).rejects.toBeInstanceOf(GitRefused);
    fs.writeFileSync(path.join(five.gitDir, "objects", "info", "alternates"), "/var/tmp\n");
    fs.writeFileSync(path.join(five.dir, ".git"), "gitdir: /var/tmp\n");
    expect(restoreTaskRepository(five)).toBe(true);
    expect(fs.existsSync(path.join(five.gitDir, "commondir"))).toBe(false);
    expect(fs.readFileSync(path.join(five.gitDir, "objects", "info", "alternates"), "utf8")).toBe(
      `${path.join(clone, ".git", "objects")}\n`,
    );
    expect(fs.readFileSync(path.join(five.dir, ".git"), "utf8")).toBe(`gitdir: ${five.gitDir}\n`);
    expect(restoreTaskRepository(five)).toBe(false);
    await runGit(taskPlace(five), ["status"]);
  });
});
