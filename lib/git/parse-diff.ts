import type { DiffFile } from "@/lib/runner-protocol";

// git's diff output, parsed: `--numstat -z` for exact paths and counts, the unified text for hunks
// and lines. No diff library: about 60 lines do it (docs/libraries.md).

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
