import fs from "node:fs";
import path from "node:path";
import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import { conflict, notFound } from "@/lib/platform/errors";
import { diffMaxBytes, diffMaxFileBytes } from "@/lib/config";
import { changedFileSizes } from "@/lib/git/changed-file-sizes";
import { rangeNumstat, rangePatch, refSha } from "@/lib/git/task-worktree";
import { repositoryCloneDir } from "@/lib/repositories/repository";
import type { DiffFile, taskDiffResponse } from "@/lib/worktrees/schemas";

// GET …/tasks/{task_id}/diff: the task branch's changes against the point where it left the default
// branch, as files → hunks → lines. Read from the server's clone (the branch's ref), so a task whose
// worktree was cleaned up still has its diff. No diff library: git's own `--numstat -z` gives exact
// paths and counts, and its unified output is parsed by one small function (parseUnifiedDiff).
// Bounded work, in lines and in bytes: every file is listed, but only files that fit get hunks.
// A file whose blobs (old + new) weigh more than DIFF_MAX_FILE_BYTES is never loaded, by git or by
// us (its size comes from the object database, and git treats it as binary): it gets a summary
// ("File too large to show: N bytes"), so a 500 MB one-line file costs what a small one does.
// Then files get hunks in order while the whole stays within MAX_PATCH_LINES changed lines and
// DIFF_MAX_BYTES of blobs (an upper bound of the patch's text, since each line of either side
// appears in it at most once).

const MAX_PATCH_LINES = 20_000;

export async function getTaskDiff(
  db: Db,
  workspaceId: string,
  taskId: string,
  context: number,
): Promise<z.output<typeof taskDiffResponse>> {
  const task = await db.task.findFirst({ where: { id: taskId, workspaceId }, select: { branch: true } });
  if (!task) throw notFound("Task");
  const repository = await db.workspaceRepository.findUnique({ where: { workspaceId } });
  if (!repository) throw conflict("The workspace has no repository, so the task has no diff");
  if (!task.branch) throw conflict("The task has no branch yet: its first run creates one");
  const cloneDir = repositoryCloneDir(workspaceId);
  const cloned = fs.existsSync(path.join(cloneDir, ".git")) || fs.existsSync(path.join(cloneDir, "HEAD"));
  const head = cloned ? await branchRef(cloneDir, task.branch) : null;
  if (!head) throw conflict(`The branch ${task.branch} has not been fetched by the server yet: start a run on the task first`);

  const maxFileBytes = diffMaxFileBytes();
  const { baseSha, headSha, numstat } = await rangeNumstat(cloneDir, head, repository.defaultBranch, maxFileBytes);
  const sizes = await changedFileSizes(cloneDir, baseSha, headSha);
  const files = parseNumstat(numstat).map((file) => {
    const size = sizes.get(file.path);
    const status = file.status === "renamed" ? file.status : (size?.status ?? file.status);
    return size && size.bytes > maxFileBytes
      ? { ...file, status, summary: `File too large to show: ${size.bytes} bytes` }
      : { ...file, status };
  });
  let lines = MAX_PATCH_LINES;
  let bytes = diffMaxBytes();
  const budgeted = files.map((file) => {
    if (file.binary || file.summary) return file;
    const size = sizes.get(file.path)?.bytes ?? 0;
    if (file.additions + file.deletions > lines || size > bytes) return { ...file, summary: OVER_BUDGET };
    lines -= file.additions + file.deletions;
    bytes -= size;
    return file;
  });
  const withHunks = budgeted.filter((file) => !file.binary && !file.summary);
  const truncated = budgeted.some((file) => file.summary !== null);
  const patch = await rangePatch(
    cloneDir,
    baseSha,
    headSha,
    context,
    truncated ? withHunks.flatMap((file) => (file.old_path ? [file.old_path, file.path] : [file.path])) : undefined,
    maxFileBytes,
  );
  const parsed = parseUnifiedDiff(patch);
  const byPath = new Map(parsed.map((file) => [file.path, file]));
  return {
    branch: task.branch,
    base: repository.defaultBranch,
    commit_sha: headSha,
    files_changed: files.length,
    lines_added: files.reduce((sum, file) => sum + file.additions, 0),
    lines_removed: files.reduce((sum, file) => sum + file.deletions, 0),
    files: budgeted.map((file) => {
      const found = byPath.get(file.path);
      return { ...file, status: found?.status ?? file.status, hunks: file.summary ? [] : (found?.hunks ?? []) };
    }),
    truncated,
  };
}

const OVER_BUDGET = "Not shown: the diff is too large to send whole";

/** The local branch of the clone (what runs committed), else the remote's (a PR branch no run has touched). */
async function branchRef(cloneDir: string, branch: string): Promise<string | null> {
  for (const ref of [`refs/heads/${branch}`, `refs/remotes/origin/${branch}`]) if (await refSha(cloneDir, ref)) return ref;
  return null;
}

/** `git diff -M --numstat -z`: "added\tdeleted\tpath\0", or for a rename "added\tdeleted\t\0old\0new\0". */
export function parseNumstat(output: string): DiffFile[] {
  const parts = output.split("\0");
  const files: DiffFile[] = [];
  for (let i = 0; i < parts.length; i++) {
    const match = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(parts[i].replace(/^\n/, ""));
    if (!match) continue;
    const binary = match[1] === "-";
    const counts = { additions: binary ? 0 : Number(match[1]), deletions: binary ? 0 : Number(match[2]), binary };
    if (match[3] === "") {
      files.push({ path: parts[i + 2], old_path: parts[i + 1], status: "renamed", ...counts, summary: null, hunks: [] });
      i += 2;
    } else {
      files.push({ path: match[3], old_path: null, status: "modified", ...counts, summary: null, hunks: [] });
    }
  }
  return files;
}

/**
 * git's unified diff → files with status and hunks. Paths come from the `---`/`+++` and `rename`
 * lines (unquoted when git quoted them); the counts and exact paths of parseNumstat take precedence.
 */
export function parseUnifiedDiff(patch: string): Pick<DiffFile, "path" | "status" | "hunks">[] {
  const files: Pick<DiffFile, "path" | "status" | "hunks">[] = [];
  let file: (typeof files)[number] | null = null;
  let hunk: DiffFile["hunks"][number] | null = null;
  let oldLine = 0;
  let newLine = 0;
  for (const line of patch.split("\n")) {
    if (line.startsWith("diff --git ")) {
      file = { path: samePathOnBothSides(line.slice("diff --git ".length)), status: "modified", hunks: [] };
      hunk = null;
      files.push(file);
      continue;
    }
    if (!file) continue;
    if (!hunk) {
      if (line.startsWith("new file mode")) file.status = "added";
      else if (line.startsWith("deleted file mode")) file.status = "deleted";
      else if (line.startsWith("rename to ")) {
        file.status = "renamed";
        file.path = unquote(line.slice("rename to ".length));
      } else if (line.startsWith("+++ ") && line !== "+++ /dev/null") file.path = unquote(line.slice(4)).replace(/^b\//, "");
      else if (line.startsWith("--- ") && line !== "--- /dev/null" && !file.path) file.path = unquote(line.slice(4)).replace(/^a\//, "");
    }
    const header = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (header) {
      hunk = { header: line, lines: [] };
      file.hunks.push(hunk);
      oldLine = Number(header[1]);
      newLine = Number(header[2]);
      continue;
    }
    if (!hunk) continue;
    if (line.startsWith("+")) hunk.lines.push({ type: "add", text: line.slice(1), old_line: null, new_line: newLine++ });
    else if (line.startsWith("-")) hunk.lines.push({ type: "del", text: line.slice(1), old_line: oldLine++, new_line: null });
    else if (line.startsWith(" ")) hunk.lines.push({ type: "context", text: line.slice(1), old_line: oldLine++, new_line: newLine++ });
    // "\ No newline at end of file" and the empty last line carry no content.
  }
  return files;
}

/** "a/P b/P" → P (a file that kept its path; also binary and mode-only changes, which have no ---/+++ lines). */
function samePathOnBothSides(rest: string): string {
  const half = (rest.length - 5) / 2;
  if (!Number.isInteger(half) || half < 1) return "";
  const candidate = rest.slice(2, 2 + half);
  return rest === `a/${candidate} b/${candidate}` ? candidate : "";
}

/** git's C-style quoting of unusual paths ("a/tab\there"), undone. */
function unquote(text: string): string {
  if (!text.startsWith('"') || !text.endsWith('"')) return text;
  const bytes: number[] = [];
  const body = text.slice(1, -1);
  const simple: Record<string, number> = { n: 10, t: 9, r: 13, b: 8, f: 12, v: 11, a: 7, '"': 34, "\\": 92 };
  for (let i = 0; i < body.length; i++) {
    if (body[i] !== "\\") {
      bytes.push(...Buffer.from(body[i], "utf8"));
      continue;
    }
    const next = body[++i];
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(body.slice(i, i + 3), 8));
      i += 2;
    } else bytes.push(simple[next] ?? next.charCodeAt(0));
  }
  return Buffer.from(bytes).toString("utf8");
}
