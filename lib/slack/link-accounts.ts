import type { WebClient } from "@slack/web-api";
import type { Db } from "@/lib/db/client";

// Slack's buttons and replies name a Slack user; the board knows people by their email address
// (docs/slack.md). A person's Slack account is looked up once (users.lookupByEmail) and kept in
// users.slack_user_id; a changed email clears it (lib/users), so it is looked up again.

/** How many members' Slack accounts one post looks up by email at most (users.lookupByEmail is rate-limited). */
const LOOKUPS_PER_POST = 50;

/** Members with an address and no Slack account found yet are looked up. */
export async function linkSlackAccounts(db: Db, client: WebClient, workspaceId: string): Promise<void> {
  const people = await db.user.findMany({
    // Viewers too: they cannot answer, and are told so by name rather than as strangers.
    where: { email: { not: null }, slackUserId: null, disabled: false, memberships: { some: { workspaceId } } },
    select: { id: true, email: true, slackUserId: true },
    take: LOOKUPS_PER_POST,
  });
  for (const person of people) await linkSlackAccount(db, client, person);
}

/** The person's Slack account: the one kept, or the one their email finds (then kept); null when none. */
export async function linkSlackAccount(
  db: Db,
  client: WebClient,
  person: { id: string; email: string | null; slackUserId: string | null },
): Promise<string | null> {
  if (person.slackUserId) return person.slackUserId;
  if (!person.email) return null;
  const found = await client.users.lookupByEmail({ email: person.email }).catch((error: { data?: { error?: string } }) => {
    if (error.data?.error === "users_not_found") return null;
    throw error;
  });
  const slackUserId = found?.user?.id ?? null;
  if (!slackUserId) return null;
  // One Slack account answers for one person: another user already linked to it keeps it.
  await db.user.updateMany({ where: { id: person.id, email: person.email }, data: { slackUserId } }).catch((error: { code?: string }) => {
    if (error.code !== "P2002") throw error;
  });
  return slackUserId;
}
