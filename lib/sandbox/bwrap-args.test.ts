import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { bwrapArgs, gitMounts, systemMounts } from "@/lib/sandbox/bwrap-args";

const roots: string[] = [];
afterAll(() => roots.forEach((root) => fs.rmSync(root, { recursive: true, force: true })));

describe("the bubblewrap command line", () => {
  it("mounts parents before children on an empty, read-only root, and shares the network only when asked", () => {
    const args = bwrapArgs({
      mounts: [
        { kind: "rw", source: "/x/wt", dest: "/tmp/work/ws/task" },
        { kind: "rw", source: "/x/tmp", dest: "/tmp" },
        { kind: "ro", source: "/usr", dest: "/usr" },
      ],
      symlinks: [{ target: "usr/bin", link: "/bin" }],
      fullNetwork: false,
      cwd: "/tmp/work/ws/task",
    });
    expect(args).not.toContain("--share-net");
    expect(args).toContain("--unshare-all");
    const binds = args.flatMap((arg, i) => (arg === "--bind" || arg === "--ro-bind" ? [args[i + 2]] : []));
    expect(binds).toEqual(["/tmp", "/usr", "/tmp/work/ws/task"]);
    expect(args.slice(-4)).toEqual(["--remount-ro", "/", "--chdir", "/tmp/work/ws/task"]);
    expect(args.some((arg, i) => args[i - 1] === "--ro-bind" && arg === "/")).toBe(false);
    expect(bwrapArgs({ mounts: [], symlinks: [], fullNetwork: true, cwd: "/" })).toContain("--share-net");
  });

  it("takes from /etc only the files programs need, never /etc itself", () => {
    const { mounts } = systemMounts();
    expect(mounts.map((m) => m.dest)).not.toContain("/etc");
    expect(mounts.filter((m) => m.dest.startsWith("/etc/")).every((m) => m.kind === "ro")).toBe(true);
  });

  it("lets git work in a worktree: its own git directory and the clone's objects and refs writable, the rest read-only", () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "bwrap-args-")));
    roots.push(root);
    const clone = path.join(root, "clone");
    execFileSync("git", ["init", "-q", "-b", "main", clone]);
    execFileSync("git", ["-C", clone, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "one"]);
    const worktree = path.join(root, "wt");
    execFileSync("git", ["-C", clone, "worktree", "add", "-q", "-b", "task", worktree]);
    const mounts = gitMounts(worktree);
    const common = path.join(clone, ".git");
    expect(mounts).toEqual([
      { kind: "ro", source: common, dest: common },
      { kind: "rw", source: path.join(common, "objects"), dest: path.join(common, "objects") },
      { kind: "rw", source: path.join(common, "refs"), dest: path.join(common, "refs") },
      { kind: "rw", source: path.join(common, "logs"), dest: path.join(common, "logs") },
      { kind: "rw", source: path.join(common, "worktrees", "wt"), dest: path.join(common, "worktrees", "wt") },
    ]);
    expect(gitMounts(clone)).toEqual([]); // a .git directory lies inside the worktree already
  });
});
