// A run's report goes to the server in `finish`, which takes at most 256 KiB
// (lib/runner-protocol.ts): a report past that would make the outcome unreportable, and an
// agent could do that on purpose with long lines. So every report (the agent's report file, its
// ACP messages, the tail of its output) is cut to REPORT_MAX_BYTES of UTF-8, well below that limit,
// at a character's boundary, and says so.

export const REPORT_MAX_BYTES = 64 * 1024;

/**
 * `text` within `maxBytes` of UTF-8 with the note. `keep`: "start" for a report the agent wrote
 * (its beginning matters), "end" for the tail of its output (its last lines matter).
 */
export function capReport(text: string, keep: "start" | "end", maxBytes = REPORT_MAX_BYTES): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes) return text;
  const note = `[report cut to its ${keep === "start" ? "first" : "last"} ${Math.floor(maxBytes / 1024)} KiB]`;
  const room = Math.max(0, maxBytes - Buffer.byteLength(note) - 1);
  if (keep === "start") return `${bytes.subarray(0, boundaryAtOrBefore(bytes, room)).toString("utf8")}\n${note}`;
  return `${note}\n${bytes.subarray(boundaryAtOrAfter(bytes, bytes.length - room)).toString("utf8")}`;
}

/** UTF-8 continuation bytes are 10xxxxxx: a character starts at any other byte. */
function isContinuation(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

function boundaryAtOrBefore(bytes: Buffer, at: number): number {
  let index = Math.min(at, bytes.length);
  while (index > 0 && index < bytes.length && isContinuation(bytes[index])) index--;
  return index;
}

function boundaryAtOrAfter(bytes: Buffer, at: number): number {
  let index = Math.max(at, 0);
  while (index < bytes.length && isContinuation(bytes[index])) index++;
  return index;
}
