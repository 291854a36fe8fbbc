import fs from "node:fs";
import path from "node:path";

// The bubblewrap command line of one sandbox, deny by default: the sandbox's root is an empty
// tmpfs, and only what is listed here is mounted into it (never `/` with holes punched in it).
// Everything else on the machine (DATA_DIR, the server's directory and configuration, other
// tasks' worktrees, /root, /home, /var) is simply not there.

export interface Mount {
  /** `ro`: read-only bind; `rw`: read-write bind. */
  kind: "ro" | "rw";
  source: string;
  dest: string;
}

/** What the system's programs need, read-only (those that exist here). */
export const SYSTEM_DIRS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];
/** From /etc, only what programs need to run, resolve names and check certificates: not /etc itself. */
export const ETC_ENTRIES = [
  "alternatives",
  "ca-certificates",
  "ca-certificates.conf",
  "debian_version",
  "gai.conf",
  "gitconfig",
  "group",
  "host.conf",
  "hosts",
  "inputrc",
  "ld.so.cache",
  "ld.so.conf",
  "ld.so.conf.d",
  "localtime",
  "mime.types",
  "nsswitch.conf",
  "os-release",
  "passwd",
  "pki",
  "protocols",
  "resolv.conf",
  "services",
  "ssl",
  "timezone",
];

/** The system part: /usr and friends (symlinks stay symlinks, as with a merged /usr), and the chosen /etc entries. */
export function systemMounts(): { mounts: Mount[]; symlinks: { target: string; link: string }[] } {
  const mounts: Mount[] = [];
  const symlinks: { target: string; link: string }[] = [];
  for (const dir of SYSTEM_DIRS) {
    const stat = fs.lstatSync(dir, { throwIfNoEntry: false });
    if (!stat) continue;
    if (stat.isSymbolicLink()) symlinks.push({ target: fs.readlinkSync(dir), link: dir });
    else if (stat.isDirectory()) mounts.push({ kind: "ro", source: dir, dest: dir });
  }
  for (const entry of ETC_ENTRIES) {
    const file = path.join("/etc", entry);
    if (fs.existsSync(file)) mounts.push({ kind: "ro", source: fs.realpathSync(file), dest: file });
  }
  return { mounts, symlinks };
}

/**
 * The arguments of `bwrap`, up to the command: every namespace unshared (the network too unless
 * `fullNetwork`), its own /proc (so only its own processes), a minimal /dev, the mounts (parents
 * before children), a read-only root, and the working directory. No --die-with-parent: like any
 * agent, a sandboxed one outlives a crashed server, whose next start stops its process group
 * (lib/runner-process/recovery.ts); the whole sandbox is in that group, its PID namespace's init too.
 */
export function bwrapArgs(options: {
  mounts: Mount[];
  symlinks: { target: string; link: string }[];
  fullNetwork: boolean;
  cwd: string;
}): string[] {
  const args = ["--unshare-all", ...(options.fullNetwork ? ["--share-net"] : []), "--hostname", "sandbox"];
  for (const { target, link } of options.symlinks) args.push("--symlink", target, link);
  args.push("--proc", "/proc", "--dev", "/dev");
  const depth = (p: string) => path.resolve(p).split("/").length;
  const ordered = [...options.mounts].sort((a, b) => depth(a.dest) - depth(b.dest));
  for (const mount of ordered) args.push(mount.kind === "rw" ? "--bind" : "--ro-bind", mount.source, mount.dest);
  // The root itself (the directories made to hold the mounts) read-only too: nothing is written
  // anywhere but the rw mounts, not even into memory.
  args.push("--remount-ro", "/", "--chdir", options.cwd);
  return args;
}

/**
 * The git a task's worktree needs, from what the runner recorded when it made the task's repository
 * (lib/git/task-repository.ts), never from a file in the worktree: its git directory read-write
 * except the configuration and the alternates (which the runner's own git reads after the run), and
 * what it borrows (the clone's objects) read-only.
 */
export function taskGitMounts(git: { gitDir: string; readOnly: string[] }): Mount[] {
  const mounts: Mount[] = [{ kind: "rw", source: fs.realpathSync(git.gitDir), dest: git.gitDir }];
  for (const file of ["config", path.join("objects", "info")]) {
    const inside = path.join(git.gitDir, file);
    if (fs.existsSync(inside)) mounts.push({ kind: "ro", source: fs.realpathSync(inside), dest: inside });
  }
  for (const dir of git.readOnly) if (fs.existsSync(dir)) mounts.push({ kind: "ro", source: fs.realpathSync(dir), dest: dir });
  return mounts;
}
