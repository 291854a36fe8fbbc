import fs from "node:fs";
import { isAlive } from "@/lib/server/processes";

// Two processes on one PGlite directory silently lose each other's writes, so a process claims the
// directory with a lock file holding its pid and refuses to open one that a live process holds.

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

export function acquireDirLock(lockPath: string): () => void {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: "wx" });
      return () => releaseLock(lockPath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = Number(readOrEmpty(lockPath));
    if (holder === process.pid) return () => releaseLock(lockPath);
    if (holder > 0 && isAlive(holder)) throw new DataDirInUseError(lockPath, holder);
    // A lock left by a process that died: remove it and try again.
    fs.rmSync(lockPath, { force: true });
  }
  throw new Error(`Could not take the lock ${lockPath}`);
}

function releaseLock(lockPath: string) {
  if (Number(readOrEmpty(lockPath)) === process.pid) fs.rmSync(lockPath, { force: true });
}

function readOrEmpty(file: string): string {
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    return "";
  }
}
