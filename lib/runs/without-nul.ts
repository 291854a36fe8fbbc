// PostgreSQL's text and jsonb cannot hold U+0000, so the API refuses it anywhere in a request
// (lib/api/validation.ts); but an agent may print anything (binary output, a NUL-separated list).
// What it printed is carried with U+FFFD in place of NUL, in strings and keys, at any depth: by the
// runner in everything it sends (lib/runner-process/protocol-client.ts; one agent's NUL once cost a whole
// log request, every run's batch in it, and the run's report), and by the server in the entries it
// writes itself. No imports: the runner process loads it.

/** `value` with every NUL in its strings replaced by U+FFFD; `json` is its JSON text, to look for one cheaply. */
export function withoutNul<T>(value: T, json: string): T {
  return json.includes("\\u0000") ? (replaced(value) as T) : value;
}

function replaced(value: unknown): unknown {
  if (typeof value === "string") return value.replaceAll("\0", "\uFFFD");
  if (Array.isArray(value)) return value.map(replaced);
  if (value && typeof value === "object" && !(value instanceof Date))
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [replaced(key), replaced(inner)]));
  return value;
}
