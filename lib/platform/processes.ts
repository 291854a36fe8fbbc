import fs from "node:fs";

// Processes this server watches or stops: the holder of the PGlite lock (lib/db/pglite-lock.ts),
// other instances' pids (lib/runner-process/recovery.ts), agents' process groups (lib/runner-process).

const PF_EXITING = 0x4;

/**
 * Whether a process runs. `kill(pid, 0)` alone is not enough: right after `kill -9` a process
 * lingers while the kernel tears it down and then as a zombie until reaped, and it succeeds on
 * both. So on Linux a zombie (Z, X) or exiting (PF_EXITING) process counts as gone; with `started`
 * (from processStartedAt), so does a pid since reused by another process.
 */
export function isAlive(pid: number, started: string | null = null): boolean {
  const stat = procStat(pid);
  if (stat === undefined) return signalable(pid); // no /proc: the pid is all there is
  if (stat === null) return false;
  if (stat.state === "Z" || stat.state === "X" || (stat.flags & PF_EXITING) !== 0) return false;
  return started === null || started === `${bootId()}:${stat.startTime}`;
}

/** When a process started (boot id and start time), to tell it from a later one with the same pid; null without /proc. */
export function processStartedAt(pid: number): string | null {
  const stat = procStat(pid);
  return stat ? `${bootId()}:${stat.startTime}` : null;
}

/** A signal to a whole process group; one that is gone already is no error. */
export function killGroup(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** SIGTERM to the group now, SIGKILL after the grace period for whatever ignored it. */
export function stopGroup(pid: number, graceMs: number) {
  killGroup(pid, "SIGTERM");
  setTimeout(() => killGroup(pid, "SIGKILL"), graceMs).unref();
}

/** undefined: this system has no /proc; null: no such process. */
function procStat(pid: number): { state: string; flags: number; startTime: string } | null | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return fs.existsSync("/proc/self/stat") ? null : undefined;
  }
  // The command name (field 2) is in parentheses and may itself hold spaces and parentheses.
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return { state: fields[0], flags: Number(fields[6]), startTime: fields[19] };
}

function bootId(): string {
  try {
    return fs.readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  } catch {
    return "";
  }
}

function signalable(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
