import type { Tx } from "@/lib/db/client";

// Who a comment names. `@name` counts where the `@` starts the text or follows a character that is
// not a letter, digit, `_`, `.` or `-` (so an email address mentions no one), and the name ends at
// the end of the text or before a character that is not a letter, digit, `_` or `-`. Matching is
// case-insensitive. A member is named by their username; an agent profile by its name as it is, or
// with its spaces written as dashes ("Code Reviewer": `@Code Reviewer` or `@code-reviewer`).

export interface Mentions {
  userIds: string[];
  agentIds: string[];
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
  if (!body.includes("@")) return { userIds: [], agentIds: [] };
  const [members, profiles] = await Promise.all([
    tx.membership.findMany({
      where: { workspaceId },
      select: { user: { select: { id: true, username: true } } },
      orderBy: { userId: "asc" },
    }),
    tx.agentProfile.findMany({ where: { workspaceId }, select: { id: true, name: true }, orderBy: { createdAt: "asc" } }),
  ]);
  return {
    userIds: members.filter((m) => mentions(body, m.user.username)).map((m) => m.user.id),
    agentIds: profiles.filter((p) => mentionsAgent(body, p.name)).map((p) => p.id),
  };
}
