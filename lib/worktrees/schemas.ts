import { z } from "zod";
import { queryInt } from "@/lib/platform/schema-primitives";

export const taskDiffQuery = z.object({
  context: queryInt(z.int().min(0).max(50)).default(3).describe("Unchanged lines shown around each change (git's --unified), 0–50."),
});

const diffLine = z.object({
  type: z.enum(["context", "add", "del"]),
  text: z.string().describe("The line without its +, - or space prefix."),
  old_line: z.int().nullable(),
  new_line: z.int().nullable(),
});

export const diffFile = z.object({
  path: z.string(),
  old_path: z.string().nullable().describe("The path before a rename; null otherwise."),
  status: z.enum(["added", "modified", "deleted", "renamed"]),
  additions: z.int(),
  deletions: z.int(),
  binary: z.boolean().describe("git's judgement; git also treats a file over the size limit as binary (see summary)."),
  summary: z
    .string()
    .nullable()
    .describe(
      'Why a text file has no hunks: "File too large to show: N bytes" (its blobs, old and new, weigh more than ' +
        "DIFF_MAX_FILE_BYTES; never loaded), or the whole diff reached its limit. Null when the hunks are shown.",
    ),
  hunks: z.array(z.object({ header: z.string().describe("The @@ line."), lines: z.array(diffLine) })),
});

export const taskDiffResponse = z.object({
  branch: z.string(),
  base: z.string().describe("The default branch the changes are measured against (from where the branch left it)."),
  commit_sha: z.string(),
  files_changed: z.int(),
  lines_added: z.int(),
  lines_removed: z.int(),
  files: z.array(diffFile),
  truncated: z
    .boolean()
    .describe(
      "True when the diff was too large to keep whole (it is stored by each run, at most DIFF_MAX_BYTES of patch): every " +
        "file is listed, but a file too large by itself, and files past the limit (20,000 changed lines, DIFF_MAX_BYTES), " +
        "have a summary and no hunks.",
    ),
});

export type DiffFile = z.output<typeof diffFile>;
