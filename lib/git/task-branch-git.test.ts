import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { pushRef } from "@/lib/git/task-branch-git";
import { commitAll, syncClone } from "@/lib/git/task-worktree";
import { ensureTaskRepository, fetchTaskBranch, taskPlace } from "@/lib/git/task-repository";

// The board's push of a task's branch (issue #35, finding 3): exactly the commit the run recorded,
// as a compare-and-swap on where the board last saw the remote's branch, never whatever the clone's
// branch points at by then, and never over a commit someone else pushed meanwhile.

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "task-branch-git-")));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd, encoding: "utf8" }).trim();

describe("pushRef with the recorded commit", () => {
  it("pushes that commit, not the branch's later tip, and refuses when the remote moved since the board saw it", async () => {
    const remote = path.join(root, "remote.git");
    const seed = path.join(root, "seed");
    git(root, "init", "-q", "--bare", "-b", "main", remote);
    git(root, "init", "-q", "-b", "main", seed);
    git(seed, "commit", "-q", "--allow-empty", "-m", "seed");
    git(seed, "push", "-q", remote, "main");
    const clone = path.join(root, "clone");
    await syncClone(remote, clone);
    const repo = { clone, gitDir: path.join(root, "task-git"), dir: path.join(root, "work") };
    await ensureTaskRepository(repo, "tb/1-x", "main");
    fs.writeFileSync(path.join(repo.dir, "a.txt"), "reviewed\n");
    await commitAll(taskPlace(repo), "reviewed");
    const recorded = git(repo.dir, "rev-parse", "HEAD");
    await fetchTaskBranch(repo, "tb/1-x", recorded);
    // The clone's branch moves on after the run was recorded (a later commit taken in): it is not what gets pushed.
    git(repo.dir, "commit", "-q", "--allow-empty", "-m", "not reviewed");
    const later = git(repo.dir, "rev-parse", "HEAD");
    await fetchTaskBranch(repo, "tb/1-x", later);
    expect(git(clone, "rev-parse", "refs/heads/tb/1-x")).toBe(later);

    const access = { url: remote, access: { config: [] } };
    expect(await pushRef(clone, access, "tb/1-x", recorded)).toBe(recorded);
    expect(git(remote, "rev-parse", "refs/heads/tb/1-x")).toBe(recorded);

    // Someone else pushes to the branch: the board's next push is refused, and theirs stays.
    git(seed, "fetch", "-q", remote, "tb/1-x");
    git(seed, "checkout", "-q", "-b", "tb/1-x", "FETCH_HEAD");
    git(seed, "commit", "-q", "--allow-empty", "-m", "someone else's");
    git(seed, "push", "-q", remote, "tb/1-x");
    const theirs = git(seed, "rev-parse", "HEAD");
    await expect(pushRef(clone, access, "tb/1-x", recorded)).rejects.toThrow(/stale info|rejected/);
    expect(git(remote, "rev-parse", "refs/heads/tb/1-x")).toBe(theirs);
  });
});
