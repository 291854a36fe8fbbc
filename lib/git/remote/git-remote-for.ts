import type { Db } from "@/lib/db/client";
import type { RemoteAccess } from "@/lib/git/remote-access";
import { githubAppFromEnv } from "@/lib/github/client/app-client";
import { githubRemote, gitRemoteAccess, isGitAuthFailure, jobRemoteAccess } from "@/lib/git/remote/github-remote";
import { keepJobToken, keptJobToken } from "@/lib/git/remote/job-tokens";
import { reachRemote } from "@/lib/git/remote/reach-remote";
import { openCredential } from "@/lib/repositories/repository-credential";

// The one place that says how the server reaches a workspace's repository: every clone, fetch and
// push of agent runs asks here. A workspace connected to GitHub, on a server with the App, reaches
// the connected repository with an installation token (the connected repository is the workspace's
// repository). Otherwise the repository row's URL (a remote, or a path on the server), reached with
// the workspace's stored credential if any, at an address the SSRF guard checked and git is pinned
// to (lib/git/remote/reach-remote.ts); never with the server user's own credentials
// (lib/git/git-environment.ts). Credentials travel only in `access`, written to private files for
// one git command (lib/git/remote-access.ts): never in the URL, .git/config, git's environment, the
// process list or the database in the clear.
// Ask again before each command that talks to the remote rather than keeping the answer: the
// address is checked again, the token is fresh (minted anew once the cached one is near its
// `expires_at`), and `fresh: true` forces a new one after git was refused.

export interface GitRemote {
  /** The plain URL git clones from and pushes to (never with credentials inside). */
  url: string;
  /** How git commands that talk to the remote reach it (its pin and credentials). */
  access: RemoteAccess;
}

/**
 * How to reach the workspace's repository, or null when none is connected. `job`: for that run's
 * job, an installation token minted for it alone, limited to the one repository and its contents,
 * kept (sealed) until the run ends and then revoked (docs/runners.md, "Job credentials"); the
 * workspace's stored credential is the repository's own already.
 */
export async function gitRemoteFor(
  db: Db,
  workspaceId: string,
  options: { fresh?: boolean; job?: { executionId: string } } = {},
): Promise<GitRemote | null> {
  const row = await db.workspace.findUnique({
    where: { id: workspaceId },
    select: {
      githubInstallationId: true,
      githubRepo: true,
      repository: { select: { url: true, credentialType: true, credentialUsername: true, credentialSealed: true } },
    },
  });
  if (!row) return null;
  const github = githubAppFromEnv();
  if (github && row.githubInstallationId !== null && row.githubRepo !== null) {
    const { job, fresh } = options;
    if (job) {
      const kept = fresh ? null : await keptJobToken(db, job.executionId);
      if (kept) return githubRemote(github, row.githubRepo, kept);
      const { remote, token } = await jobRemoteAccess(github, row.githubInstallationId, row.githubRepo);
      await keepJobToken(db, job.executionId, row.githubInstallationId, token, remote.expiresAt);
      return { url: remote.url, access: remote.access };
    }
    const access = await gitRemoteAccess(github, row.githubInstallationId, row.githubRepo, { fresh });
    return { url: access.url, access: access.access };
  }
  return row.repository ? reachRemote(workspaceId, row.repository.url, openCredential(row.repository)) : null;
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
    if (!isGitAuthFailure(error instanceof Error ? error.message : String(error))) throw error;
    const renewed = await gitRemoteFor(db, workspaceId, { fresh: true });
    if (!renewed) throw error;
    return command(renewed);
  }
}
