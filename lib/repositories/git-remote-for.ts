import type { Db } from "@/lib/db/client";
import { githubAppFromEnv } from "@/lib/github/app-client";
import { gitRemoteAccess, isGitAuthFailure } from "@/lib/github/git-remote";

// The ONE way to reach a workspace's repository from git (clone, fetch, push). A workspace connected
// to GitHub, on a server with the App, uses the connected repository with an installation token: the
// connected repository is the workspace's repository. Otherwise the repository row's URL or path, with
// git's own credentials. The token travels only in `env` (git's environment-only configuration, see
// lib/github/git-remote.ts): never in the URL, .git/config or the database. Call this before each
// command that talks to the remote rather than keeping the result: the token is fresh when asked for
// (and `fresh: true` forces a new one, after git was refused).

export type GitRemote = { url: string; env?: Record<string, string> };

export async function gitRemoteFor(db: Db, workspaceId: string, options: { fresh?: boolean } = {}): Promise<GitRemote | null> {
  const row = await db.workspace.findUnique({
    where: { id: workspaceId },
    select: { githubInstallationId: true, githubRepo: true, repository: { select: { url: true } } },
  });
  if (!row) return null;
  const github = githubAppFromEnv();
  if (github && row.githubInstallationId !== null && row.githubRepo !== null) {
    const access = await gitRemoteAccess(github, row.githubInstallationId, row.githubRepo, options);
    return { url: access.url, env: access.env };
  }
  return row.repository ? { url: row.repository.url } : null;
}

/**
 * Runs `command` against the workspace's remote; when git says the remote refused the credentials
 * (an installation token revoked or expired early), once more with a freshly minted token.
 * Null when the workspace has no repository.
 */
export async function withGitRemote<T>(db: Db, workspaceId: string, command: (remote: GitRemote) => Promise<T>): Promise<T | null> {
  const remote = await gitRemoteFor(db, workspaceId);
  if (!remote) return null;
  try {
    return await command(remote);
  } catch (error) {
    if (!remote.env || !isGitAuthFailure(error instanceof Error ? error.message : String(error))) throw error;
    const renewed = await gitRemoteFor(db, workspaceId, { fresh: true });
    if (!renewed) throw error;
    return command(renewed);
  }
}
