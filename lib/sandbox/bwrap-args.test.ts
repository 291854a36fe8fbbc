import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { bwrapArgs, systemMounts, taskGitMounts } from "@/lib/sandbox/bwrap-args";

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

  it("mounts a task's git directory as the runner recorded it: config and alternates read-only, the clone's objects read-only", () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "bwrap-args-")));
    roots.push(root);
    const gitDir = path.join(root, "task-git");
    const objects = path.join(root, "clone", ".git", "objects");
    execFileSync("git", ["init", "-q", "--template=", "--separate-git-dir", gitDir, path.join(root, "wt")]);
    fs.mkdirSync(path.join(gitDir, "objects", "info"), { recursive: true });
    fs.mkdirSync(objects, { recursive: true });
    // Whatever the worktree's .git says is never read: the mounts follow the record alone.
    fs.writeFileSync(path.join(root, "wt", ".git"), "gitdir: /var/tmp\n");
    expect(taskGitMounts({ gitDir, readOnly: [objects] })).toEqual([
      { kind: "rw", source: gitDir, dest: gitDir },
      { kind: "ro", source: path.join(gitDir, "config"), dest: path.join(gitDir, "config") },
      { kind: "ro", source: path.join(gitDir, "objects", "info"), dest: path.join(gitDir, "objects", "info") },
      { kind: "ro", source: objects, dest: objects },
    ]);
  });
});
