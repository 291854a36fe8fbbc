import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// The runner's private directory (issue #35, finding 10): its task worktrees, reports, agents'
// session files and homes, and bundles live under one directory that only the runner's user can
// enter (0700), by default in that user's state directory, never under a fixed name in a shared
// /tmp, where another local user could make it first and plant symlinks. One that exists but is a
// symlink or belongs to someone else is refused in words; nothing is written through it.

/** Thrown when the private directory cannot be trusted; the message says why and what to do. */
export class PrivateDirRefused extends Error {}

let verified: string | null = null;

/** RUNNER_PRIVATE_DIR, else `$XDG_STATE_HOME/taskboard`, else `~/.local/state/taskboard`: made 0700 when missing, checked each time it is first used in a process. */
export function runnerPrivateDir(): string {
  const state = process.env.XDG_STATE_HOME?.trim() || path.join(os.homedir(), ".local", "state");
  const dir = path.resolve(process.env.RUNNER_PRIVATE_DIR?.trim() || path.join(state, "taskboard"));
  if (verified === dir) return dir;
  ensurePrivateDir(dir);
  verified = dir;
  return dir;
}

/** Makes `dir` (0700) when missing; refuses a symlink, a non-directory, or one owned by another user, and closes one left open to others. */
export function ensurePrivateDir(dir: string, uid = process.getuid?.()): void {
  fs.mkdirSync(path.dirname(dir), { recursive: true, mode: 0o700 });
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const stat = fs.lstatSync(dir);
  if (stat.isSymbolicLink() || !stat.isDirectory())
    throw new PrivateDirRefused(
      `${dir} is not a directory of the runner's own (a symlink or a file): remove it, or set RUNNER_PRIVATE_DIR`,
    );
  if (uid !== undefined && stat.uid !== uid)
    throw new PrivateDirRefused(
      `${dir} belongs to another user (uid ${stat.uid}): the runner does not use it. Remove it, or set RUNNER_PRIVATE_DIR`,
    );
  if ((stat.mode & 0o077) !== 0) fs.chmodSync(dir, 0o700);
}

/** True when `target` or any directory between `root` and it is a symlink (or missing): nothing is read or written through one. */
export function throughSymlink(root: string, target: string): boolean {
  const relative = path.relative(root, target);
  if (relative.startsWith("..") || path.isAbsolute(relative)) return true;
  let current = root;
  for (const part of relative.split(path.sep).filter(Boolean)) {
    current = path.join(current, part);
    const stat = fs.lstatSync(current, { throwIfNoEntry: false });
    if (!stat || stat.isSymbolicLink()) return true;
  }
  return false;
}
