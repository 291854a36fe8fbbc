import { runGit } from "@/lib/git/run-git";

// How many bytes each changed file of a range weighs, before asking git for any patch: the diff
// diff budgets bytes with it (lib/git/branch-diff.ts). Blob sizes come from the object
// database (`git cat-file --batch-check`), which reads headers, never contents: a 500 MB file
// costs what a 5 byte one does.

const NO_BLOB = /^0+$/;

export interface ChangedFileSize {
  /** The size of the old blob plus the new blob. */
  bytes: number;
  /** From git's status letter, for files no patch is asked for. */
  status: "added" | "modified" | "deleted" | "renamed";
}

/** The new path of each changed file → its weight in bytes and its status. */
export async function changedFileSizes(cloneDir: string, baseSha: string, headSha: string): Promise<Map<string, ChangedFileSize>> {
  const entries = parseRaw(await rangeRaw(cloneDir, baseSha, headSha));
  const blobs = [...new Set(entries.flatMap((entry) => [entry.oldBlob, entry.newBlob]).filter((id) => !NO_BLOB.test(id)))];
  const sizes = await blobSizes(cloneDir, blobs);
  return new Map(
    entries.map((entry) => [
      entry.path,
      { bytes: (sizes.get(entry.oldBlob) ?? 0) + (sizes.get(entry.newBlob) ?? 0), status: STATUS[entry.status[0]] ?? "modified" },
    ]),
  );
}

const STATUS: Record<string, ChangedFileSize["status"]> = { A: "added", D: "deleted", R: "renamed" };

interface RawEntry {
  path: string;
  oldBlob: string;
  newBlob: string;
  status: string;
}

/** `git diff --raw -z`: ":<mode> <mode> <old> <new> <status>\0<path>\0", two paths for R and C. */
export function parseRaw(output: string): RawEntry[] {
  const parts = output.split("\0");
  const entries: RawEntry[] = [];
  for (let i = 0; i < parts.length; i++) {
    const meta = parts[i].replace(/^\n/, "");
    if (!meta.startsWith(":")) continue;
    const [, , oldBlob, newBlob, status] = meta.slice(1).split(" ");
    const twoPaths = status.startsWith("R") || status.startsWith("C");
    const path = twoPaths ? parts[i + 2] : parts[i + 1];
    i += twoPaths ? 2 : 1;
    entries.push({ path, oldBlob, newBlob, status });
  }
  return entries;
}

/** `git diff -M --raw -z`: each changed file's modes, blob ids and paths; reads no blob. */
function rangeRaw(cloneDir: string, baseSha: string, headSha: string): Promise<string> {
  return runGit({ cloneDir }, [
    "diff",
    "--no-color",
    "--no-ext-diff",
    "--no-textconv",
    "-M",
    "--raw",
    "-z",
    "--no-abbrev",
    baseSha,
    headSha,
  ]);
}

/** Object id → size; ids git does not have (a submodule's commit) are left out. */
async function blobSizes(cloneDir: string, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const out = await runGit({ cloneDir }, ["cat-file", "--batch-check=%(objectname) %(objectsize)"], { input: ids.join("\n") + "\n" });
  const sizes = new Map<string, number>();
  for (const line of out.split("\n")) {
    const [id, size] = line.split(" ");
    if (id && /^\d+$/.test(size ?? "")) sizes.set(id, Number(size));
  }
  return sizes;
}
