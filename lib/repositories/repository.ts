import fs from "node:fs";
import path from "node:path";
import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import type { WorkspaceRepository } from "@/lib/generated/prisma/client";
import { forbidden, notFound, ValidationError } from "@/lib/api/errors";
import { dataDir } from "@/lib/config";
import { remoteHeads } from "@/lib/git/task-worktree";
import { removeWorkspaceWorktrees } from "@/lib/worktrees/sweep-worktrees";
import { worktreeDiskUse } from "@/lib/worktrees/worktree-records";
import { isLocalRepository, type repositoryResponse, type setRepositoryBody } from "@/lib/repositories/schemas";

/** The server's clone of a workspace's repository. */
export function repositoryCloneDir(workspaceId: string): string {
  return path.join(dataDir(), "repos", workspaceId);
}

export async function getRepository(db: Db, workspaceId: string) {
  const row = await db.workspaceRepository.findUnique({ where: { workspaceId } });
  if (!row) throw notFound("Repository");
  return serializeRepository(row, await worktreeDiskUse(db, workspaceId));
}

/**
 * Connects (or replaces) the workspace's repository after asking the remote for its branches, so a
 * wrong URL or a missing default branch is answered now, in git's words, rather than at the first run.
 */
export async function setRepository(db: Db, workspaceId: string, input: z.output<typeof setRepositoryBody>, callerIsAdmin: boolean) {
  if (isLocalRepository(input.url) && !callerIsAdmin) throw forbidden("Only administrators may connect a repository on the server's disk");
  const heads = await remoteHeads(input.url).catch((error: Error) => {
    throw invalid("url", input.url, `git could not read this repository: ${firstLine(error.message)}`);
  });
  if (!heads.includes(input.default_branch)) {
    throw invalid("default_branch", input.default_branch, `The repository has no branch ${input.default_branch}`);
  }
  const previous = await db.workspaceRepository.findUnique({ where: { workspaceId } });
  const data = {
    url: input.url,
    defaultBranch: input.default_branch,
    ...(input.worktree_retention_days !== undefined ? { worktreeRetentionDays: input.worktree_retention_days } : {}),
  };
  const row = await db.workspaceRepository.upsert({ where: { workspaceId }, create: { workspaceId, ...data }, update: data });
  // Another repository's clone and worktrees mean nothing for the new one.
  if (previous && previous.url !== input.url) {
    await removeWorkspaceWorktrees(db, workspaceId);
    fs.rmSync(repositoryCloneDir(workspaceId), { recursive: true, force: true });
  }
  return serializeRepository(row, await worktreeDiskUse(db, workspaceId));
}

/** Disconnects; the server's clone goes (branches pushed to the remote stay there). */
export async function deleteRepository(db: Db, workspaceId: string) {
  const { count } = await db.workspaceRepository.deleteMany({ where: { workspaceId } });
  if (count === 0) throw notFound("Repository");
  await removeWorkspaceWorktrees(db, workspaceId);
  fs.rmSync(repositoryCloneDir(workspaceId), { recursive: true, force: true });
}

export function serializeRepository(
  row: WorkspaceRepository,
  worktrees: { count: number; bytes: number },
): z.output<typeof repositoryResponse> {
  return {
    workspace_id: row.workspaceId,
    url: row.url,
    default_branch: row.defaultBranch,
    worktree_retention_days: row.worktreeRetentionDays,
    worktree_count: worktrees.count,
    worktree_disk_bytes: worktrees.bytes,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

function invalid(field: string, input: string, msg: string) {
  return new ValidationError([{ type: "value_error", loc: ["body", field], msg, input }]);
}

function firstLine(text: string) {
  return text.trim().split("\n").filter(Boolean).at(-1) ?? text;
}
