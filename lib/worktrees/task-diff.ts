import fs from "node:fs";
import path from "node:path";
import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import { conflict, notFound } from "@/lib/api/errors";
import { rangeNumstat, rangePatch, refSha } from "@/lib/git/task-worktree";
import { repositoryCloneDir } from "@/lib/repositories/repository";
import type { DiffFile, taskDiffResponse } from "@/lib/worktrees/schemas";

// GET …/tasks/{task_id}/diff: the task branch's changes against the point where it left the default
// branch, as files → hunks → lines. Read from the server's clone (the branch's ref), so a task whose
// worktree was cleaned up still has its diff. No diff library: git's own `--numstat -z` gives exact
// paths and counts, and its unified output is parsed by one small function (parseUnifiedDiff).
// Bounded work: at most MAX_PATCH_LINES changed lines get hunks; every file is listed.

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

  const { baseSha, headSha, numstat } = await rangeNumstat(cloneDir, head, repository.defaultBranch);
  const files = parseNumstat(numstat);
  let budget = MAX_PATCH_LINES;
  const withHunks = files.filter((file) => {
    const lines = file.additions + file.deletions;
    if (file.binary || lines > budget) return false;
    budget -= lines;
    return true;
  });
  const truncated = withHunks.length < files.filter((file) => !file.binary).length;
  const patch = await rangePatch(
    cloneDir,
    baseSha,
    headSha,
    context,
    truncated ? withHunks.flatMap((file) => (file.old_path ? [file.old_path, file.path] : [file.path])) : undefined,
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
    files: files.map((file) => {
      const found = byPath.get(file.path);
      return { ...file, status: found?.status ?? file.status, hunks: found?.hunks ?? [] };
    }),
    truncated,
  };
}

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
      files.push({ path: parts[i + 2], old_path: parts[i + 1], status: "renamed", ...counts, hunks: [] });
      i += 2;
    } else {
      files.push({ path: match[3], old_path: null, status: "modified", ...counts, hunks: [] });
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
