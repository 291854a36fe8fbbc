import { z } from "zod";
import { queryInt } from "@/lib/platform/schema-primitives";
import { diffFile } from "@/lib/runner-protocol";

export const taskDiffQuery = z.object({
  context: queryInt(z.int().min(0).max(50)).default(3).describe("Unchanged lines shown around each change (git's --unified), 0–50."),
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
