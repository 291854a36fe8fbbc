import path from "node:path";
import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import type { WorkspaceRepository } from "@/lib/generated/prisma/client";
import { notFound } from "@/lib/platform/errors";
import { dataDir } from "@/lib/config";
import { worktreeDiskUse } from "@/lib/worktrees/worktree-records";
import { serializeCredential } from "@/lib/repositories/repository-credential";
import type { repositoryResponse } from "@/lib/repositories/schemas";

/** The server's clone of a workspace's repository. */
export function repositoryCloneDir(workspaceId: string): string {
  return path.join(dataDir(), "repos", workspaceId);
}

export async function getRepository(db: Db, workspaceId: string) {
  const row = await db.workspaceRepository.findUnique({ where: { workspaceId } });
  if (!row) throw notFound("Repository");
  return serializeRepository(row, await worktreeDiskUse(db, workspaceId));
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
    credential: serializeCredential(row),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
