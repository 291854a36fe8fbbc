import { spawn, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { filesWithMarkers, MAX_SCAN_BYTES } from "@/lib/git/conflict-markers";

// The conflict-marker check against what an agent can leave in its worktree: FIFOs, symlinks out
// of it, files larger than the bound. Real files on disk; the event loop must never stall.

const dirs: string[] = [];
const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir() {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "markers-")));
  dirs.push(dir);
  return dir;
}

const CONFLICT = "line 1\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> origin/main\n";

/** Runs `work` while measuring the longest time the event loop went without a timer tick. */
async function longestStall<T>(work: () => Promise<T>): Promise<{ result: T; stallMs: number }> {
  let last = Date.now();
  let stallMs = 0;
  const tick = setInterval(() => {
    stallMs = Math.max(stallMs, Date.now() - last);
    last = Date.now();
  }, 10);
  try {
    const result = await work();
    stallMs = Math.max(stallMs, Date.now() - last);
    return { result, stallMs };
  } finally {
    clearInterval(tick);
  }
}

describe("filesWithMarkers", () => {
  it("finds markers in regular files, also with CRLF, at the end without a newline, and past the first chunk", async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "conflicted.txt"), CONFLICT);
    fs.writeFileSync(path.join(dir, "crlf.txt"), CONFLICT.replaceAll("\n", "\r\n"));
    fs.writeFileSync(path.join(dir, "at-end.txt"), "a\n>>>>>>>");
    fs.writeFileSync(path.join(dir, "late.txt"), `${"x".repeat(3 * 1024 * 1024 + 5)}\n=======\n`);
    fs.writeFileSync(path.join(dir, "clean.txt"), "a\n======== (eight, not a marker)\n<<<<<<<<x\n");
    fs.writeFileSync(path.join(dir, "one-long-line.txt"), `=======${"=".repeat(2 * 1024 * 1024)}`);
    const files = ["conflicted.txt", "crlf.txt", "at-end.txt", "late.txt", "clean.txt", "one-long-line.txt", "missing.txt"];
    expect(await filesWithMarkers(dir, files)).toEqual(["conflicted.txt", "crlf.txt", "at-end.txt", "late.txt"]);
  });

  it("does not block on a FIFO named in the check, nor wait for a writer", async () => {
    const dir = tempDir();
    execFileSync("mkfifo", [path.join(dir, "shared.txt")]);
    // A writer that shows up after 3 s: a blocking read would stall the event loop until then.
    const writer = spawn("sh", ["-c", `sleep 3; printf '<<<<<<< HEAD\\n' > '${path.join(dir, "shared.txt")}'`]);
    children.push(writer);
    const started = Date.now();
    const { result, stallMs } = await longestStall(() => filesWithMarkers(dir, ["shared.txt"]));
    expect(result).toEqual([]);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(stallMs).toBeLessThan(500);
  });

  it("follows no symlink: not to a file outside with markers, not to /dev/zero, not through a linked directory", async () => {
    const dir = tempDir();
    const outside = tempDir();
    fs.writeFileSync(path.join(outside, "secret.txt"), CONFLICT);
    fs.symlinkSync(path.join(outside, "secret.txt"), path.join(dir, "shared.txt"));
    fs.symlinkSync("/dev/zero", path.join(dir, "zero.txt"));
    fs.symlinkSync(outside, path.join(dir, "linked"));
    const { result, stallMs } = await longestStall(() => filesWithMarkers(dir, ["shared.txt", "zero.txt", "linked/secret.txt"]));
    expect(result).toEqual([]);
    expect(stallMs).toBeLessThan(500);
  });

  it("reads at most the bound: a larger text file is reported as too large to check, a larger binary one is skipped", async () => {
    const dir = tempDir();
    const big = path.join(dir, "big.txt");
    const line = Buffer.from(`${"a".repeat(1023)}\n`);
    const handle = fs.openSync(big, "w");
    for (let written = 0; written <= MAX_SCAN_BYTES; written += line.length) fs.writeSync(handle, line);
    fs.closeSync(handle);
    const size = fs.statSync(big).size;
    // 500 MB of NULs, sparse: binary, so no merge leaves markers in it, and it is not read.
    execFileSync("truncate", ["-s", "500M", path.join(dir, "sparse.bin")]);
    const { result, stallMs } = await longestStall(() => filesWithMarkers(dir, ["big.txt", "sparse.bin"]));
    expect(result).toEqual([`big.txt (too large to check: ${size} bytes)`]);
    expect(stallMs).toBeLessThan(500);
  });
});
