import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { acquireDirLock, DataDirInUseError } from "@/lib/db/pglite-lock";

// Who counts as holding the PGlite directory, decided against real processes: a running holder,
// a zombie, a pid reused by an unrelated process, a holder that is gone.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "taskboard-lock-"));
const lockPath = path.join(dir, "pglite.lock");
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the PGlite directory lock", () => {
  it("refuses while the recorded holder is running, after a bounded wait", async () => {
    const holder = await running();
    fs.writeFileSync(lockPath, JSON.stringify({ pid: holder, started: startedAt(holder) }));
    const begun = Date.now();
    await expect(acquireDirLock(lockPath, 500)).rejects.toThrow(DataDirInUseError);
    expect(Date.now() - begun).toBeGreaterThanOrEqual(500);
  });

  it("takes over from a holder that is a zombie nobody has reaped", async () => {
    const zombie = await unreapedZombie();
    for (const lock of [String(zombie), JSON.stringify({ pid: zombie, started: startedAt(zombie) })]) {
      fs.writeFileSync(lockPath, lock);
      const release = await acquireDirLock(lockPath, 0);
      expect(fs.readFileSync(lockPath, "utf8")).toContain(String(process.pid));
      release();
    }
    expect(stat(zombie)[0]).toBe("Z");
    expect(fs.existsSync(lockPath)).toBe(false);
  });

  it("takes over when the recorded pid now belongs to another process (pid reuse)", async () => {
    const other = await running();
    fs.writeFileSync(lockPath, JSON.stringify({ pid: other, started: `${startedAt(other)}0` }));
    const release = await acquireDirLock(lockPath, 0);
    expect(JSON.parse(fs.readFileSync(lockPath, "utf8")).pid).toBe(process.pid);
    release();
  });

  it("reads the older bare-pid lock: refused while that pid runs, taken over once it is gone", async () => {
    const holder = await running();
    fs.writeFileSync(lockPath, String(holder));
    await expect(acquireDirLock(lockPath, 0)).rejects.toThrow(/in use by another process \(pid \d+\)/);
    process.kill(holder, "SIGKILL");
    const release = await acquireDirLock(lockPath, 5_000);
    expect(JSON.parse(fs.readFileSync(lockPath, "utf8")).pid).toBe(process.pid);
    release();
  });
});

async function running(): Promise<number> {
  const child = spawn("sleep", ["600"], { stdio: "ignore" });
  children.push(child);
  await new Promise((resolve) => child.once("spawn", resolve));
  return child.pid!;
}

/** A child of `sleep` (which never waits for children) that has exited: a zombie until sleep ends. */
async function unreapedZombie(): Promise<number> {
  const parent = spawn("/bin/sh", ["-c", "true & exec sleep 600"], { stdio: "ignore" });
  children.push(parent);
  for (;;) {
    const pid = Number(readOrEmpty(`/proc/${parent.pid}/task/${parent.pid}/children`).trim().split(" ")[0]);
    if (pid > 0 && stat(pid)[0] === "Z") return pid;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function startedAt(pid: number): string {
  return `${readOrEmpty("/proc/sys/kernel/random/boot_id").trim()}:${stat(pid)[19]}`;
}

/** /proc/<pid>/stat from field 3 (the state) on. */
function stat(pid: number): string[] {
  const text = readOrEmpty(`/proc/${pid}/stat`);
  return text.slice(text.lastIndexOf(")") + 2).split(" ");
}

function readOrEmpty(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return "";
  }
}
