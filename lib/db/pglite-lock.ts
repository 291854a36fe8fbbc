import fs from "node:fs";
import { isAlive, processStartedAt } from "@/lib/platform/processes";

// Two processes on one PGlite directory silently lose each other's writes, so a process claims the
// directory with a lock file naming itself and refuses to open one that a running process holds.
//
// "Running" must not be decided by `kill(pid, 0)` alone: right after `kill -9` the holder lingers,
// first while the kernel tears it down (~0.2 s idle, seconds under load) and then as a zombie until
// its parent reaps it (forever under a parent that never waits), and `kill(pid, 0)` succeeds on both.
// Neither can write again once every thread is past its last write: PGlite writes its files
// synchronously from its own thread (lib/db/pglite-worker.mjs), and a thread in the kernel's exit
// path never returns to user code. So on Linux the holder counts as gone when /proc says each of its
// threads is a zombie (Z, X) or exiting (PF_EXITING) (isAlive, lib/platform/processes.ts): the first
// thread of a killed process is a zombie while the others are still finishing. The lock also records the
// holder's start time (boot id + stat field 22): a pid reused by an unrelated process after a crash
// or a reboot then does not block the directory. A holder that is running gets a bounded wait, so a
// restart that overlaps a graceful shutdown (SIGTERM, closing PGlite) still starts.

const WAIT_FOR_HOLDER_MS = 5_000;
const POLL_MS = 100;

export class DataDirInUseError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `The embedded database in ${dir} is in use by another process (pid ${pid}). ` +
        "Only one process may open it: stop that process, or give this one its own DATA_DIR, " +
        "or use PostgreSQL (DATABASE_URL) to run several instances.",
    );
    this.name = "DataDirInUseError";
  }
}

interface Holder {
  pid: number;
  /** Null where there is no /proc (the lock then falls back to the pid alone), or in an old lock. */
  started: string | null;
}

export async function acquireDirLock(lockPath: string, waitMs = WAIT_FOR_HOLDER_MS): Promise<() => void> {
  const self: Holder = { pid: process.pid, started: processStartedAt(process.pid) };
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      fs.writeFileSync(lockPath, JSON.stringify(self), { flag: "wx" });
      return () => releaseLock(lockPath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = readHolder(lockPath);
    if (holder?.pid === process.pid) return () => releaseLock(lockPath);
    if (holder && isAlive(holder.pid, holder.started)) {
      if (Date.now() >= deadline) throw new DataDirInUseError(lockPath, holder.pid);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      continue;
    }
    // Left by a process that is gone (or unreadable, e.g. cut short by a crash while written).
    fs.rmSync(lockPath, { force: true });
  }
}

function releaseLock(lockPath: string) {
  if (readHolder(lockPath)?.pid === process.pid) fs.rmSync(lockPath, { force: true });
}

function readHolder(lockPath: string): Holder | null {
  let text: string;
  try {
    text = fs.readFileSync(lockPath, "utf8").trim();
  } catch {
    return null;
  }
  // Before JSON the lock held the bare pid.
  if (/^\d+$/.test(text)) return { pid: Number(text), started: null };
  try {
    const parsed = JSON.parse(text) as Partial<Holder>;
    return Number.isInteger(parsed.pid) && parsed.pid! > 0 ? { pid: parsed.pid!, started: parsed.started ?? null } : null;
  } catch {
    return null;
  }
}
