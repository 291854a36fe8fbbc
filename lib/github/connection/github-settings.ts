import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import type { deliveriesResponse, githubSettings, githubSettingsPatch } from "@/lib/github/connection/schemas";

// The workspace's GitHub behaviour and the deliveries it received: what Settings shows the owner.

export async function githubSettingsOf(db: Db, workspaceId: string): Promise<z.output<typeof githubSettings>> {
  return serialize(await db.workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: SETTINGS }));
}

export async function updateGithubSettings(db: Db, workspaceId: string, patch: z.output<typeof githubSettingsPatch>) {
  const row = await db.workspace.update({
    where: { id: workspaceId },
    data: {
      githubMergedToDone: patch.merged_to_done,
      githubAutoOpenPr: patch.auto_open_pull_request,
      githubAutoFixConflicts: patch.auto_fix_conflicts,
      githubAutoFixChecks: patch.auto_fix_checks,
    },
    select: SETTINGS,
  });
  return serialize(row);
}

/**
 * The newest deliveries about the workspace's repository (one statement): through its installation,
 * or through no installation (a repository webhook), as deliveries are applied. Never the rest of
 * the installation's deliveries: another workspace's repository, or installation events.
 */
export async function recentDeliveries(db: Db, workspaceId: string, limit: number): Promise<z.input<typeof deliveriesResponse>> {
  const rows = await db.$queryRaw<
    { delivery_id: string; event: string; action: string | null; received_at: Date; result: string | null; error: string | null }[]
  >`
    SELECT d.delivery_id, d.event, d.action, d.received_at, d.result, d.error
    FROM workspaces w JOIN github_deliveries d
      ON d.repo = lower(w.github_repo)
      AND (d.installation_id IS NULL OR d.installation_id = w.github_installation_id)
    WHERE w.id = ${workspaceId}
    ORDER BY d.received_at DESC, d.delivery_id DESC
    LIMIT ${limit}`;
  return { items: rows.map((row) => ({ ...row, received_at: row.received_at.toISOString() })) };
}

const SETTINGS = { githubMergedToDone: true, githubAutoOpenPr: true, githubAutoFixConflicts: true, githubAutoFixChecks: true } as const;

function serialize(row: {
  githubMergedToDone: boolean;
  githubAutoOpenPr: boolean;
  githubAutoFixConflicts: boolean;
  githubAutoFixChecks: boolean;
}) {
  return {
    merged_to_done: row.githubMergedToDone,
    auto_open_pull_request: row.githubAutoOpenPr,
    auto_fix_conflicts: row.githubAutoFixConflicts,
    auto_fix_checks: row.githubAutoFixChecks,
  };
}
