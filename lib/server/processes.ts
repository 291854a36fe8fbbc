import fs from "node:fs";

// Processes this server watches or stops: the holder of the PGlite lock, other instances' pids,
// agents' process groups.

/** Whether a process runs. A zombie (exited, not yet reaped) counts as gone; EPERM means it exists under another user. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return true; // no /proc (not Linux): kill(0) said it exists
  }
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
