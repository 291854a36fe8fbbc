import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import { slackClient } from "@/lib/slack/slack-client";
import type { slackStatus } from "@/lib/slack/schemas";

/** Settings → Slack: whether the app works (Slack's auth.test), and how many members it can recognise. */
export async function getSlackStatus(db: Db, workspaceId: string): Promise<z.output<typeof slackStatus>> {
  const [workspace, linked] = await Promise.all([
    db.workspace.findUnique({ where: { id: workspaceId }, select: { slackChannel: true } }),
    db.membership.count({ where: { workspaceId, role: { not: "viewer" }, user: { slackUserId: { not: null } } } }),
  ]);
  const client = await slackClient();
  const base = { configured: client !== null, channel: workspace?.slackChannel ?? null, linked_members: linked };
  if (!client) return { ...base, team_id: null, error: null };
  try {
    const auth = await client.auth.test();
    return { ...base, team_id: auth.team_id ?? null, error: null };
  } catch (error) {
    const said = (error as { data?: { error?: string } }).data?.error;
    return { ...base, team_id: null, error: said ?? (error as Error).message };
  }
}
