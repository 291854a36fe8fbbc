import fs from "node:fs";

// Processes this server watches or stops: the holder of the PGlite lock (lib/db/pglite-lock.ts),
// other instances' pids (lib/runner-process/recovery.ts), agents' process groups (lib/runner-process).

const PF_EXITING = 0x4;

/**
 * Whether a process runs. `kill(pid, 0)` alone is not enough: right after `kill -9` a process
 * lingers while the kernel tears it down and then as a zombie until reaped, and it succeeds on
 * both. So on Linux a process counts as gone once each of its threads is a zombie (Z, X) or exiting
 * (PF_EXITING): none of them can run its own code again. All threads, not only the first: the
 * first thread of a killed process is a zombie while the others still finish (the embedded database
 * writes from a thread of its own, lib/db/pglite-worker.mjs). With `started` (from
 * processStartedAt), a pid since reused by another process counts as gone too.
 */
export function isAlive(pid: number, started: string | null = null): boolean {
  const stat = procStat(pid);
  if (stat === undefined) return signalable(pid); // no /proc: the pid is all there is
  if (stat === null) return false;
  if (started !== null && started !== `${bootId()}:${stat.startTime}`) return false;
  return threadStats(pid, stat).some((thread) => !(thread.state === "Z" || thread.state === "X" || (thread.flags & PF_EXITING) !== 0));
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

type Stat = { state: string; flags: number; startTime: string };

/** undefined: this system has no /proc; null: no such process. */
function procStat(pid: number): Stat | null | undefined {
  const stat = readStat(`/proc/${pid}/stat`);
  if (stat === null && !fs.existsSync("/proc/self/stat")) return undefined;
  return stat;
}

/** Each thread's stat; the process's own (its first thread's) when they cannot be listed. */
function threadStats(pid: number, first: Stat): Stat[] {
  let tids: string[];
  try {
    tids = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return [first];
  }
  const stats = tids.flatMap((tid) => readStat(`/proc/${pid}/task/${tid}/stat`) ?? []);
  return stats.length > 0 ? stats : [first];
}

function readStat(file: string): Stat | null {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return null;
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
