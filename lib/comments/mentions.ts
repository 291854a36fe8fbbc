import type { Tx } from "@/lib/db/client";

// Who a comment names. `@name` counts where the `@` starts the text or follows a character that is
// not a letter, digit, `_`, `.` or `-` (so an email address mentions no one), and the name ends at
// the end of the text or before a character that is not a letter, digit, `_` or `-`. Matching is
// case-insensitive. A member is named by their username; an agent profile by its name as it is, or
// with its spaces written as dashes ("Code Reviewer": `@Code Reviewer` or `@code-reviewer`).
// Text in Markdown code (fenced or indented blocks, and `spans`) names no one: people quote
// handles and logs there, and a quoted `@agent` must not start a run.

export interface Mentions {
  userIds: string[];
  agentIds: string[];
}

// A fence opens with 3+ backticks or tildes and closes with at least as many of the same (or the text ends).
const FENCED_BLOCK = /^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^ {0,3}\1[`~]*[ \t]*$|(?![\s\S]))/gm;
// An indented code block: lines indented 4+ spaces (or a tab) after a blank line or at the start.
const INDENTED_BLOCK = /(^|\n[ \t]*\n)((?:(?: {4}|\t)[^\n]*(?:\n|$))+)/g;
// A code span: a run of backticks, closed by a run of the same length.
const CODE_SPAN = /(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g;

/** `body` with its Markdown code replaced by spaces, so what remains is the prose a mention can be in. */
export function withoutCode(body: string): string {
  const blank = (text: string) => text.replace(/[^\n]/g, " ");
  return body
    .replace(FENCED_BLOCK, blank)
    .replace(INDENTED_BLOCK, (_all, before: string, block: string) => before + blank(block))
    .replace(CODE_SPAN, blank);
}

export function mentions(body: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[^\\p{L}\\p{N}_.\\-])@${escaped}(?![\\p{L}\\p{N}_\\-])`, "iu").test(body);
}

export function mentionsAgent(body: string, profileName: string): boolean {
  return mentions(body, profileName) || mentions(body, profileName.trim().replace(/\s+/g, "-"));
}

/** The workspace's members and agent profiles that `body` names, each once, in their own order. */
export async function findMentions(tx: Tx, workspaceId: string, body: string): Promise<Mentions> {
  const prose = withoutCode(body);
  if (!prose.includes("@")) return { userIds: [], agentIds: [] };
  const [members, profiles] = await Promise.all([
    tx.membership.findMany({
      where: { workspaceId },
      select: { user: { select: { id: true, username: true } } },
      orderBy: { userId: "asc" },
    }),
    tx.agentProfile.findMany({ where: { workspaceId }, select: { id: true, name: true }, orderBy: { createdAt: "asc" } }),
  ]);
  return {
    userIds: members.filter((m) => mentions(prose, m.user.username)).map((m) => m.user.id),
    agentIds: profiles.filter((p) => mentionsAgent(prose, p.name)).map((p) => p.id),
  };
}
