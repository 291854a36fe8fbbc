// The Prefer header (RFC 7240): what a client would like of the answer. This server honours
// `wait=reactions` on writes (lib/api/after-reactions.ts) and `respond-async` on a run's start
// (the answer does not wait for a runner to start the agent; lib/runs/start-run.ts).

export const RESPOND_ASYNC = "respond-async";

/** Whether the request prefers an answer at once to one that waits for the work (RFC 7240 §4.1). */
export function prefersRespondAsync(request: Request): boolean {
  return preferences(request.headers.get("prefer")).has(RESPOND_ASYNC);
}

/**
 * The preferences of a `Prefer` header (RFC 7240 §2), by lower-cased name: a preference's value
 * (unquoted; "" when it has none), its parameters left out. The first of a repeated preference
 * counts; what does not parse is passed over, as a preference the server does not know would be.
 * Several Prefer headers reach here joined by commas, which is the same list.
 */
export function preferences(header: string | null): Map<string, string> {
  const found = new Map<string, string>();
  for (const element of splitOutsideQuotes(header ?? "", ",")) {
    const [preference] = splitOutsideQuotes(element, ";");
    const equals = preference.indexOf("=");
    const name = (equals < 0 ? preference : preference.slice(0, equals)).trim().toLowerCase();
    if (!TOKEN.test(name) || found.has(name)) continue;
    const raw = equals < 0 ? "" : preference.slice(equals + 1).trim();
    const value = raw.startsWith('"') ? unquote(raw) : raw;
    if (value === null || (!raw.startsWith('"') && raw !== "" && !TOKEN.test(raw))) continue;
    found.set(name, value);
  }
  return found;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted && char === "\\" && i + 1 < text.length) {
      current += char + text[++i];
      continue;
    }
    if (char === '"') quoted = !quoted;
    if (char === separator && !quoted) {
      parts.push(current);
      current = "";
    } else current += char;
  }
  parts.push(current);
  return parts;
}

/** A quoted-string's content, or null when it is not one (no closing quote, or text after it). */
function unquote(raw: string): string | null {
  const match = /^"((?:[^"\\]|\\.)*)"$/.exec(raw);
  return match ? match[1].replace(/\\(.)/g, "$1") : null;
}
