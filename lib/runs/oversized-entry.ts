// What a log entry too big to keep becomes: what it was and how big, never megabytes in one entry.
// The server stores it for a payload over LOG_ENTRY_MAX_CHARS (append-log-entries.ts); a runner
// sends it for an entry bigger than one request may be (lib/runner-process/http-port.ts). No imports: the
// runner process loads it.

export function oversizedUpdate(update: Record<string, unknown>, chars: number): Record<string, unknown> {
  const kind = typeof update.sessionUpdate === "string" ? { sessionUpdate: update.sessionUpdate } : {};
  const id = typeof update.toolCallId === "string" ? { toolCallId: update.toolCallId } : {};
  return { ...kind, ...id, truncated: true, chars };
}
