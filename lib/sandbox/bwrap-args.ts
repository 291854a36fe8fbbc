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
 * (lib/runner/recovery.ts); the whole sandbox is in that group, its PID namespace's init too.
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
 * The git directories a worktree's `.git` file leads to, so git works inside: the worktree's own
 * (index, HEAD) read-write, the clone's common directory read-only except its objects, refs and
 * logs (a commit writes those). The rest of DATA_DIR stays out of sight.
 */
export function gitMounts(worktree: string): Mount[] {
  let text: string;
  try {
    const dotGit = path.join(worktree, ".git");
    if (!fs.lstatSync(dotGit).isFile()) return [];
    text = fs.readFileSync(dotGit, "utf8");
  } catch {
    return [];
  }
  const match = /^gitdir: (.+)$/m.exec(text);
  if (!match) return [];
  const own = path.resolve(worktree, match[1].trim());
  let common: string;
  try {
    common = path.resolve(own, fs.readFileSync(path.join(own, "commondir"), "utf8").trim());
  } catch {
    return fs.existsSync(own) ? [{ kind: "rw", source: fs.realpathSync(own), dest: own }] : [];
  }
  const mounts: Mount[] = [];
  const add = (kind: Mount["kind"], dir: string) => {
    if (fs.existsSync(dir)) mounts.push({ kind, source: fs.realpathSync(dir), dest: dir });
  };
  add("ro", common);
  for (const part of ["objects", "refs", "logs"]) add("rw", path.join(common, part));
  add("rw", own);
  return mounts;
}
