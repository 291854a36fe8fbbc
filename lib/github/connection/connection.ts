import fs from "node:fs";
import type { z } from "zod";
import { conflict, forbidden, HttpError } from "@/lib/platform/errors";
import { githubAppFromEnv, statusOf } from "@/lib/github/client/app-client";
import { fetchRepository } from "@/lib/github/client/fetch-repository";
import { repositoryCloneDir } from "@/lib/repositories/repository";
import type { Db } from "@/lib/db/client";
import { appConfigured } from "@/lib/platform/github-app-settings";
import type { codehostStatus, connectCodehostBody } from "@/lib/github/connection/schemas";

// The code host is GitHub; the connection is two columns of the workspace row. An installation gets
// there through Connect GitHub (lib/github/connection/github-install.ts), where GitHub vouches that the owner
// can access it, or from a server administrator; owners then pick one of its repositories.

/** `owner`: the installation id is shown to the workspace's owners only (members and agent tokens get null). */
export async function codehostStatusOf(db: Db, workspaceId: string, viewer: { owner: boolean }): Promise<z.output<typeof codehostStatus>> {
  const row = await db.workspace.findUniqueOrThrow({
    where: { id: workspaceId },
    select: { githubInstallationId: true, githubRepo: true, githubDisconnectReason: true },
  });
  const connected = row.githubInstallationId !== null && row.githubRepo !== null;
  return {
    connected,
    installation_id: connected && viewer.owner ? row.githubInstallationId : null,
    repo: connected ? row.githubRepo : null,
    app_configured: appConfigured(),
    oauth_configured: githubAppFromEnv()?.settings.oauth != null,
    ...(!connected && row.githubDisconnectReason ? { reason: row.githubDisconnectReason } : {}),
  };
}

/**
 * PUT …/codehost. An owner picks a repository of the installation Connect GitHub recorded, and only
 * one that installation can see; naming any other installation is for server administrators (403
 * otherwise), whose word is taken as it is, as scripts and tests connect by hand.
 */
export async function connectCodehost(
  db: Db,
  workspaceId: string,
  input: z.output<typeof connectCodehostBody>,
  caller: { isAdmin: boolean },
) {
  const { githubInstallationId: recorded } = await db.workspace.findUniqueOrThrow({
    where: { id: workspaceId },
    select: { githubInstallationId: true },
  });
  const installationId = input.installation_id ?? recorded;
  if (installationId === null) throw conflict("No GitHub installation is recorded for this workspace: connect GitHub first");
  if (installationId !== recorded && !caller.isAdmin) throw forbidden(FOREIGN_INSTALLATION);
  if (!caller.isAdmin) await requireRepositoryOf(installationId, input.repo);
  await db.workspace.update({
    where: { id: workspaceId },
    data: { githubInstallationId: installationId, githubRepo: input.repo, githubDisconnectReason: null },
  });
  await adoptAsRepository(db, workspaceId, installationId, input.repo);
  return codehostStatusOf(db, workspaceId, { owner: true });
}

const FOREIGN_INSTALLATION =
  "Only a server administrator may name a GitHub App installation directly: use Connect GitHub in the workspace settings, where GitHub confirms that you can access the installation, then pick one of its repositories";

// The installation's own view of the repository: one it cannot see would never clone, and its name
// must not draw another installation's deliveries to this workspace.
async function requireRepositoryOf(installationId: number, repo: string) {
  const github = githubAppFromEnv();
  if (!github) throw conflict("The GitHub App is not configured on this server (GITHUB_APP_ID and GITHUB_APP_PRIVATE_KEY)");
  try {
    await fetchRepository(github, installationId, repo);
  } catch (error) {
    const status = statusOf(error);
    if (status === 404 || status === 403)
      throw new HttpError(400, `${repo} is not among the repositories the GitHub installation can access`);
    throw new HttpError(502, "GitHub could not be asked about the repository; try again");
  }
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
  // Another repository's clone, worktrees and stored diffs mean nothing for this one.
  if (previous && previous.url !== url) {
    fs.rmSync(repositoryCloneDir(workspaceId), { recursive: true, force: true });
    await db.taskDiff.deleteMany({ where: { workspaceId } });
  }
}

export async function disconnectCodehost(db: Db, workspaceId: string) {
  await db.workspace.update({
    where: { id: workspaceId },
    data: { githubInstallationId: null, githubRepo: null, githubDisconnectReason: null },
  });
}
