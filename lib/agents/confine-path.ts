import fs from "node:fs/promises";
import { constants } from "node:fs";
import path from "node:path";
import { RequestError } from "@agentclientprotocol/sdk";

// An agent is untrusted code: its fs/read_text_file and fs/write_text_file requests may name any
// path, `..` and symlinks included. Each is resolved through the real filesystem and refused unless
// it stays inside the worktree, and the last component is opened without following a symlink, so a
// link swapped in after the check cannot lead outside either.

const READ_MAX_BYTES = 2 * 1024 * 1024;

export async function readInside(root: string, requested: string, line?: number | null, limit?: number | null): Promise<string> {
  const file = await resolveInside(root, requested);
  const handle = await openNoFollow(file, constants.O_RDONLY);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw refused(requested, "is not a regular file");
    if (stat.size > READ_MAX_BYTES) throw refused(requested, `is larger than ${READ_MAX_BYTES} bytes`);
    const text = await handle.readFile("utf8");
    if (!line && !limit) return text;
    const lines = text.split("\n");
    const start = Math.max(0, (line ?? 1) - 1);
    return lines.slice(start, limit ? start + limit : undefined).join("\n");
  } finally {
    await handle.close();
  }
}

export async function writeInside(root: string, requested: string, content: string): Promise<void> {
  const file = await resolveInside(root, requested);
  await fs.mkdir(path.dirname(file), { recursive: true });
  // The directories were created inside the root; check again in case one of them is a link.
  await resolveInside(root, requested);
  const handle = await openNoFollow(file, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC);
  try {
    if (!(await handle.stat()).isFile()) throw refused(requested, "is not a regular file");
    await handle.writeFile(content, "utf8");
  } finally {
    await handle.close();
  }
}

/** The absolute path `requested` names, if it lies inside `root` once every existing link is resolved. */
export async function resolveInside(root: string, requested: string): Promise<string> {
  if (typeof requested !== "string" || requested.includes("\0")) throw refused(String(requested), "is not a valid path");
  const realRoot = await fs.realpath(root);
  const absolute = path.resolve(realRoot, requested);
  // Resolve the longest existing prefix (the file itself may not exist yet).
  let existing = absolute;
  const rest: string[] = [];
  for (;;) {
    try {
      existing = await fs.realpath(existing);
      break;
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) throw refused(requested, "does not exist");
      rest.unshift(path.basename(existing));
      existing = parent;
    }
  }
  const resolved = path.join(existing, ...rest);
  if (resolved !== realRoot && !resolved.startsWith(realRoot + path.sep)) throw refused(requested, "is outside the task's worktree");
  return resolved;
}

async function openNoFollow(file: string, flags: number) {
  try {
    return await fs.open(file, flags | constants.O_NOFOLLOW, 0o644);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP") throw refused(file, "is a symbolic link");
    if (code === "ENOENT") throw RequestError.resourceNotFound(file);
    throw error;
  }
}

function refused(requested: string, why: string) {
  return RequestError.invalidParams({ path: requested }, `Refused: ${requested} ${why}`);
}
