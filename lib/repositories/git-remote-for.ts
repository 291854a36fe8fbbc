import type { Db } from "@/lib/db/client";

// The one place that says how the server reaches a workspace's repository: every clone, fetch and
// push of agent runs asks here. Today the URL is the one connected (a remote, or a path on the
// server), reached with the server's own git credentials (credential helper, SSH agent); nothing
// secret is stored. A GitHub-connected repository will answer with its installation token in `env`.

export interface GitRemote {
  /** The plain URL git clones from and pushes to (never with credentials inside). */
  url: string;
  /** Variables added to the environment of git commands that talk to the remote. */
  env?: Record<string, string>;
}

/** How to reach the workspace's repository, or null when none is connected. */
export async function gitRemoteFor(db: Db, workspaceId: string): Promise<GitRemote | null> {
  const repository = await db.workspaceRepository.findUnique({ where: { workspaceId }, select: { url: true } });
  return repository ? { url: repository.url } : null;
}
