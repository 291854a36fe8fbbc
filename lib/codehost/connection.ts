import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import { githubAppConfigured } from "@/lib/config";
import type { codehostStatus } from "@/lib/codehost/schemas";

// The code host is GitHub; the connection is two columns of the workspace row.

export async function codehostStatusOf(db: Db, workspaceId: string): Promise<z.output<typeof codehostStatus>> {
  const row = await db.workspace.findUniqueOrThrow({
    where: { id: workspaceId },
    select: { githubInstallationId: true, githubRepo: true, githubDisconnectReason: true },
  });
  const connected = row.githubInstallationId !== null && row.githubRepo !== null;
  return {
    connected,
    installation_id: connected ? row.githubInstallationId : null,
    repo: connected ? row.githubRepo : null,
    app_configured: githubAppConfigured(),
    ...(!connected && row.githubDisconnectReason ? { reason: row.githubDisconnectReason } : {}),
  };
}

export async function connectCodehost(db: Db, workspaceId: string, installationId: number, repo: string) {
  await db.workspace.update({
    where: { id: workspaceId },
    data: { githubInstallationId: installationId, githubRepo: repo, githubDisconnectReason: null },
  });
  return codehostStatusOf(db, workspaceId);
}

export async function disconnectCodehost(db: Db, workspaceId: string) {
  await db.workspace.update({
    where: { id: workspaceId },
    data: { githubInstallationId: null, githubRepo: null, githubDisconnectReason: null },
  });
}
