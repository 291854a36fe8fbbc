import fs from "node:fs";
import type { z } from "zod";
import { githubAppFromEnv } from "@/lib/github/app-client";
import { fetchRepository } from "@/lib/github/fetch-repository";
import { repositoryCloneDir } from "@/lib/repositories/repository";
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
  await adoptAsRepository(db, workspaceId, installationId, repo);
  return codehostStatusOf(db, workspaceId);
}

/**
 * The connected GitHub repository becomes the workspace's repository, where agent runs work
 * (gitRemoteFor then reaches it with an installation token), with GitHub's default branch. Only
 * with the App configured: without it the server could not clone it anyway, and scripts that
 * connect by hand keep whatever repository they set.
 */
async function adoptAsRepository(db: Db, workspaceId: string, installationId: number, repo: string) {
  const github = githubAppFromEnv();
  if (!github) return;
  const url = `${github.settings.webUrl}/${repo}.git`;
  const defaultBranch = await fetchRepository(github, installationId, repo).then(
    (found) => found.default_branch ?? "main",
    // Not a 5xx for the connection: the branch can be corrected with PUT …/repository.
    () => "main",
  );
  const previous = await db.workspaceRepository.findUnique({ where: { workspaceId }, select: { url: true } });
  await db.workspaceRepository.upsert({
    where: { workspaceId },
    create: { workspaceId, url, defaultBranch },
    update: { url, defaultBranch },
  });
  // Another repository's clone and worktrees mean nothing for this one.
  if (previous && previous.url !== url) fs.rmSync(repositoryCloneDir(workspaceId), { recursive: true, force: true });
}

export async function disconnectCodehost(db: Db, workspaceId: string) {
  await db.workspace.update({
    where: { id: workspaceId },
    data: { githubInstallationId: null, githubRepo: null, githubDisconnectReason: null },
  });
}
