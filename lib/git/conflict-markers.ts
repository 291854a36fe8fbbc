import { constants } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";

// The check for conflict markers left in an agent's worktree. The paths come from git, but the
// files are whatever the agent left there: a FIFO (a synchronous read would wait for a writer
// forever, and with it the whole server), a symlink to /dev/zero or to a file outside the worktree,
// or a file of any size. So: lstat first, and only regular files are read; they are opened with
// O_NOFOLLOW (no symlink swapped in after the lstat) and O_NONBLOCK (no FIFO either), checked
// again on the open descriptor, and read asynchronously in chunks, at most MAX_SCAN_BYTES.

/** Files larger than this are not read: they are reported as too large to check, never passed. */
export const MAX_SCAN_BYTES = 64 * 1024 * 1024;
const CHUNK = 1024 * 1024;
/** git's own test for binary content: a NUL in the first 8000 bytes. Merges leave no markers there. */
const BINARY_PROBE = 8000;
const MARKER_LINE = /^(<{7}( |\r?$)|={7}\r?$|>{7}( |\r?$))/;
/** How much of an unfinished line decides whether it is a marker ("<<<<<<< " is 8 characters). */
const DECIDING = 8;

/**
 * Files of an in-progress merge that still hold conflict markers, each named by its path; a text
 * file too large to check is listed too, with its size, so it can never slip through unchecked.
 */
export async function filesWithMarkers(dir: string, files: string[]): Promise<string[]> {
  const root = await fs.realpath(dir);
  const left: string[] = [];
  for (const file of files) {
    const verdict = await check(root, file);
    if (verdict === "markers") left.push(file);
    else if (typeof verdict === "number") left.push(`${file} (too large to check: ${verdict} bytes)`);
  }
  return left;
}

async function check(root: string, file: string): Promise<"markers" | "clean" | number> {
  const full = path.join(root, file);
  // Only a regular file inside the worktree: not a symlink, FIFO, device or directory, and not
  // below a directory symlinked elsewhere.
  const stat = await fs.lstat(full).catch(() => null);
  if (!stat?.isFile()) return "clean";
  const parent = await fs.realpath(path.dirname(full)).catch(() => null);
  if (parent === null || (parent !== root && !parent.startsWith(root + path.sep))) return "clean";
  const handle = await fs.open(full, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => null);
  if (!handle) return "clean";
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) return "clean";
    return await scan(handle, opened.size);
  } finally {
    await handle.close();
  }
}

async function scan(handle: fs.FileHandle, size: number): Promise<"markers" | "clean" | number> {
  const buffer = Buffer.alloc(CHUNK);
  let offset = 0;
  let carry = "";
  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, CHUNK, offset);
    if (offset === 0) {
      if (buffer.subarray(0, Math.min(bytesRead, BINARY_PROBE)).includes(0)) return "clean";
      if (size > MAX_SCAN_BYTES) return size;
    }
    if (bytesRead === 0) break;
    offset += bytesRead;
    // latin1 keeps one character per byte: markers are ASCII, and no UTF-8 sequence is split.
    const lines = (carry + buffer.toString("latin1", 0, bytesRead)).split("\n");
    carry = lines.pop()!.slice(0, DECIDING);
    if (lines.some((line) => MARKER_LINE.test(line))) return "markers";
    // A file that grows while it is read is read no further than the bound.
    if (offset >= MAX_SCAN_BYTES) return offset;
  }
  return MARKER_LINE.test(carry) ? "markers" : "clean";
}
