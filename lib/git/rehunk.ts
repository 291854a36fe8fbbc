import type { DiffFile } from "@/lib/runner-protocol";

// A diff is stored with the most context the route serves (lib/git/branch-diff.ts), and a smaller
// `?context=N` is cut from it here, as git itself would have cut it: changes whose gap of unchanged
// lines is at most 2N share a hunk (xdiff's rule), each hunk keeps N lines around its changes, and its
// header is rebuilt with git's counting (a count of 1 is left out; an empty side names the line
// before) and git's default function line (the nearest earlier line of the old file that starts with
// a letter, "_" or "$", cut to 80 bytes), looked for in the stored lines first and else taken from
// the stored hunk's own header, which git found by the same search further up.

type Hunk = DiffFile["hunks"][number];
type Line = Hunk["lines"][number];

const HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$/;
const FUNCTION_LINE = /^[A-Za-z_$]/;
const FUNCTION_BYTES = 80;

/** The hunks with `context` lines of context, from hunks that have at least that many. */
export function rehunk(hunks: Hunk[], context: number, storedContext: number): Hunk[] {
  if (context >= storedContext) return hunks;
  return hunks.flatMap((hunk) => cut(hunk, context));
}

function cut(hunk: Hunk, context: number): Hunk[] {
  const header = HEADER.exec(hunk.header);
  if (!header) return [hunk];
  const [oldStart, oldCount, newStart, newCount] = [1, 2, 3, 4].map((i) => (header[i] === undefined ? 1 : Number(header[i])));
  // The old and new line numbers where each line of the hunk sits (the next line, for the side it is not on).
  let oldAt = oldCount === 0 ? oldStart + 1 : oldStart;
  let newAt = newCount === 0 ? newStart + 1 : newStart;
  const positions = hunk.lines.map((line) => {
    const at = { old: oldAt, new: newAt };
    if (line.type !== "add") oldAt++;
    if (line.type !== "del") newAt++;
    return at;
  });
  const changes = hunk.lines.flatMap((line, index) => (line.type === "context" ? [] : [index]));
  if (changes.length === 0) return [];
  const groups: [number, number][] = [];
  for (const index of changes) {
    const last = groups.at(-1);
    if (last && index - last[1] - 1 <= 2 * context) last[1] = index;
    else groups.push([index, index]);
  }
  return groups.map(([first, last]) => {
    const from = Math.max(0, first - context);
    const to = Math.min(hunk.lines.length - 1, last + context);
    const lines = hunk.lines.slice(from, to + 1);
    const olds = lines.filter((line) => line.type !== "add").length;
    const news = lines.filter((line) => line.type !== "del").length;
    const range = (start: number, count: number) => `${count === 0 ? start - 1 : start}${count === 1 ? "" : `,${count}`}`;
    const func = functionLine(hunk.lines.slice(0, from)) ?? header[5];
    return { header: `@@ -${range(positions[from].old, olds)} +${range(positions[from].new, news)} @@${func}`, lines };
  });
}

/** git's default function line for a hunk after `before` (old-file lines only), with its leading space; null when none is there. */
function functionLine(before: Line[]): string | null {
  for (let i = before.length - 1; i >= 0; i--) {
    const line = before[i];
    if (line.type === "add" || !FUNCTION_LINE.test(line.text)) continue;
    const bytes = Buffer.from(`${line.text}\n`, "utf8").subarray(0, FUNCTION_BYTES);
    return ` ${bytes.toString("utf8").replace(/\s+$/, "")}`;
  }
  return null;
}
