import type { Db } from "@/lib/db/client";
import { trackingRecorded } from "@/lib/events/recorded-events";
import { waitForReactions } from "@/lib/reactions/wait-for-reactions";

// A write answers once its own transaction has committed: the reactions to it (a dependant started,
// a task moved by the board's automation) run afterwards, in the reactions worker, and reach the
// browser through the event stream. Waiting for them in every request made every writer queue
// behind that one worker (issue #36). A client that needs their effects in the answer's wake (a
// script that moves a blocker to Done and then reads its dependant's run) asks for it with
// `Prefer: wait=reactions` (RFC 7240): then the answer waits, at most 2 s, for the reactions that
// read what the request recorded, and says so with `Preference-Applied: wait=reactions`.

export const WAIT_FOR_REACTIONS = "wait=reactions";

/** Runs the handler's `work`, and waits for its reactions first when the request prefers it. */
export async function afterReactions(request: Request, db: Db, work: () => Promise<Response>): Promise<Response> {
  if (preferences(request.headers.get("prefer")).get("wait") !== "reactions") return work();
  const { result, recorded } = await trackingRecorded(work);
  if (result.status >= 400) return result;
  if (recorded.size > 0) await waitForReactions(db, recorded);
  result.headers.set("preference-applied", WAIT_FOR_REACTIONS);
  return result;
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
