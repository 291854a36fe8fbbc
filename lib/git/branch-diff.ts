import { changedFileSizes } from "@/lib/git/changed-file-sizes";
import { parseNumstat, parseUnifiedDiff } from "@/lib/git/parse-diff";
import { runGit } from "@/lib/git/run-git";
import type { DiffFile } from "@/lib/runner-protocol";

// A task branch's changes against the point where it left the default branch, computed where the
// clone is (after each run) and stored, so the diff route serves it from the database on any
// instance (lib/git/worktree/task-diff.ts). A function of paths and limits only: no database.
//
// Bounded work and bounded bytes: every file is listed, but only files that fit get hunks. A file
// whose blobs (old + new) weigh more than `maxFileBytes` is never loaded, by git or by us (its size
// comes from the object database, and git treats it as binary): it gets a summary ("File too large
// to show: N bytes"), so a 500 MB one-line file costs what a small one does. Then files get hunks in
// order while the whole stays within MAX_PATCH_LINES changed lines and `maxBytes` of blobs, and the
// patch text kept is cut at `maxBytes` too, at a file's boundary. The patch is kept with
// STORED_CONTEXT lines of context, the most the route serves; a smaller `?context=` is cut from it
// (lib/git/rehunk.ts).

const MAX_PATCH_LINES = 20_000;
export const STORED_CONTEXT = 50;
export const OVER_BUDGET = "Not shown: the diff is too large to send whole";

const DIFF = ["-c", "core.quotePath=false", "diff", "--no-color", "--no-ext-diff", "--no-textconv", "-M"];
/** git treats blobs larger than core.bigFileThreshold as binary without reading them: a huge file is never loaded. */
const bigFiles = (bytes: number) => ["-c", `core.bigFileThreshold=${bytes}`];

/** A branch's diff as it is stored: the files without hunks, and the unified patch of those shown. */
export interface BranchDiff {
  branch: string;
  base: string;
  baseSha: string;
  commitSha: string;
  filesChanged: number;
  linesAdded: number;
  linesRemoved: number;
  truncated: boolean;
  /** Every changed file, `hunks` empty (they are in `patch`). */
  files: DiffFile[];
  /** `git diff --unified=STORED_CONTEXT` of the files that have no summary; at most maxBytes. */
  patch: string;
}

export interface DiffLimits {
  maxBytes: number;
  maxFileBytes: number;
}

/** The diff of `head` (a ref of the clone) against where it left `origin/<base>`. */
export async function computeBranchDiff(
  cloneDir: string,
  branch: string,
  head: string,
  base: string,
  limits: DiffLimits,
): Promise<BranchDiff> {
  const clone = { cloneDir };
  const headSha = (await runGit(clone, ["rev-parse", "--verify", `${head}^{commit}`])).trim();
  const baseSha = (await runGit(clone, ["merge-base", headSha, `refs/remotes/origin/${base}`])).trim();
  const numstat = await runGit(clone, [...bigFiles(limits.maxFileBytes), ...DIFF, "--numstat", "-z", baseSha, headSha]);
  const sizes = await changedFileSizes(cloneDir, baseSha, headSha);
  const files = parseNumstat(numstat).map((file) => {
    const size = sizes.get(file.path);
    const status = file.status === "renamed" ? file.status : (size?.status ?? file.status);
    return size && size.bytes > limits.maxFileBytes
      ? { ...file, status, summary: `File too large to show: ${size.bytes} bytes` }
      : { ...file, status };
  });
  let lines = MAX_PATCH_LINES;
  let bytes = limits.maxBytes;
  const budgeted = files.map((file) => {
    if (file.binary || file.summary) return file;
    const size = sizes.get(file.path)?.bytes ?? 0;
    if (file.additions + file.deletions > lines || size > bytes) return { ...file, summary: OVER_BUDGET };
    lines -= file.additions + file.deletions;
    bytes -= size;
    return file;
  });
  const shown = budgeted.filter((file) => !file.binary && !file.summary);
  const paths = shown.flatMap((file) => (file.old_path ? [file.old_path, file.path] : [file.path]));
  const limit = budgeted.some((file) => file.summary !== null) ? ["--", ...paths.map((file) => `:(literal)${file}`)] : [];
  const patch =
    shown.length === 0
      ? ""
      : await runGit(clone, [...bigFiles(limits.maxFileBytes), ...DIFF, `--unified=${STORED_CONTEXT}`, baseSha, headSha, ...limit]);
  const kept = withinBytes(patch, limits.maxBytes);
  const final = budgeted.map((file) =>
    !file.binary && !file.summary && !kept.paths.has(file.path) ? { ...file, summary: OVER_BUDGET } : file,
  );
  return {
    branch,
    base,
    baseSha,
    commitSha: headSha,
    filesChanged: files.length,
    linesAdded: files.reduce((sum, file) => sum + file.additions, 0),
    linesRemoved: files.reduce((sum, file) => sum + file.deletions, 0),
    truncated: final.some((file) => file.summary !== null),
    files: final,
    patch: kept.patch,
  };
}

/** The patch's files, in order, while their text fits in `maxBytes`; the paths kept. */
function withinBytes(patch: string, maxBytes: number): { patch: string; paths: Set<string> } {
  const segments = patch.split(/^(?=diff --git )/m).filter(Boolean);
  let used = 0;
  const kept: string[] = [];
  for (const segment of segments) {
    const size = Buffer.byteLength(segment, "utf8");
    if (used + size > maxBytes) break;
    used += size;
    kept.push(segment);
  }
  const text = kept.join("");
  return { patch: text, paths: new Set(parseUnifiedDiff(text).map((file) => file.path)) };
}
