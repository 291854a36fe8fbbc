import fs from "node:fs";
import path from "node:path";
import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import { forbidden, notFound, ValidationError } from "@/lib/platform/errors";
import { remoteHeads } from "@/lib/git/task-worktree";
import { removeWorkspaceWorktrees } from "@/lib/git/worktree/sweep-worktrees";
import { worktreeDiskUse } from "@/lib/worktrees/worktree-records";
import { ForbiddenAddressError } from "@/lib/net/guard-address";
import { knownHostsFile, reachRemote } from "@/lib/git/remote/reach-remote";
import { remoteFailureMessage } from "@/lib/git/remote/remote-failure";
import { isLocalRepository, parseRemoteUrl } from "@/lib/repositories/remote-url";
import { repositoryCloneDir, serializeRepository } from "@/lib/repositories/repository";
import { credentialColumns, openCredential } from "@/lib/repositories/repository-credential";
import type { setRepositoryBody } from "@/lib/repositories/schemas";

// Connecting and disconnecting a workspace's repository run git (the remote is asked for its
// branches; the clone and worktrees go), so they live with git; the record itself is
// lib/repositories/repository.ts.

/**
 * Connects (or replaces) the workspace's repository after asking the remote for its branches, so a
 * wrong URL, credential or default branch is answered now, in words, rather than at the first run.
 * The stored credential is kept while the URL's host stays the same: it never follows the URL to
 * another host, where whoever runs that host would receive it.
 */
export async function setRepository(db: Db, workspaceId: string, input: z.output<typeof setRepositoryBody>, callerIsAdmin: boolean) {
  if (isLocalRepository(input.url) && !callerIsAdmin) throw forbidden("Only administrators may connect a repository on the server's disk");
  const previous = await db.workspaceRepository.findUnique({ where: { workspaceId } });
  const target = parseRemoteUrl(input.url)!;
  const keep = input.credential === undefined && previous && sameHost(previous.url, input.url) ? openCredential(previous) : null;
  const credential = input.credential ?? keep;
  const fits = !credential || (credential.type === "access_token" ? target.transport === "http" : target.transport === "ssh");
  if (!fits) {
    const needed = credential!.type === "access_token" ? "an https:// URL" : "an ssh:// or user@host:path URL";
    throw invalid(
      "credential",
      credential!.type,
      `A${credential!.type === "access_token" ? "n access token" : " deploy key"} needs ${needed}`,
    );
  }
  const remote = await reachRemote(workspaceId, input.url, credential).catch((error: Error) => {
    throw invalid("url", input.url, error instanceof ForbiddenAddressError ? error.message : "could not read the repository: unreachable");
  });
  const heads = await remoteHeads(remote.url, remote.access).catch((error: Error) => {
    throw invalid("url", input.url, remoteFailureMessage(error.message));
  });
  if (!heads.includes(input.default_branch)) {
    throw invalid("default_branch", input.default_branch, `The repository has no branch ${input.default_branch}`);
  }
  const data = {
    url: input.url,
    defaultBranch: input.default_branch,
    ...(input.worktree_retention_days !== undefined ? { worktreeRetentionDays: input.worktree_retention_days } : {}),
    ...(input.credential !== undefined || !keep ? credentialColumns(input.credential ?? null) : {}),
  };
  const row = await db.workspaceRepository.upsert({ where: { workspaceId }, create: { workspaceId, ...data }, update: data });
  // Another repository's clone, worktrees and stored diffs mean nothing for the new one.
  if (previous && previous.url !== input.url) {
    await removeWorkspaceWorktrees(db, workspaceId);
    await db.taskDiff.deleteMany({ where: { workspaceId } });
    fs.rmSync(repositoryCloneDir(workspaceId), { recursive: true, force: true });
  }
  return serializeRepository(row, await worktreeDiskUse(db, workspaceId));
}

/** Disconnects; the server's clone goes (branches pushed to the remote stay there). */
export async function deleteRepository(db: Db, workspaceId: string) {
  const { count } = await db.workspaceRepository.deleteMany({ where: { workspaceId } });
  if (count === 0) throw notFound("Repository");
  await removeWorkspaceWorktrees(db, workspaceId);
  await db.taskDiff.deleteMany({ where: { workspaceId } });
  fs.rmSync(repositoryCloneDir(workspaceId), { recursive: true, force: true });
  fs.rmSync(path.dirname(knownHostsFile(workspaceId)), { recursive: true, force: true });
}

function invalid(field: string, input: string, msg: string) {
  return new ValidationError([{ type: "value_error", loc: ["body", field], msg, input }]);
}

function sameHost(a: string, b: string): boolean {
  const [first, second] = [parseRemoteUrl(a), parseRemoteUrl(b)];
  return Boolean(first && second && first.transport === second.transport && first.host === second.host && first.port === second.port);
}
