import type { Db } from "@/lib/db/client";
import type { MemberRole, Workspace } from "@/lib/generated/prisma/client";
import type { z } from "zod";
import { conflict, notFound } from "@/lib/platform/errors";
import type { updateWorkspaceBody } from "@/lib/workspaces/schemas";

export async function createWorkspace(db: Db, ownerId: string, name: string) {
  const row = await db.workspace.create({
    data: { name, memberships: { create: { userId: ownerId, role: "owner" } } },
  });
  return serializeWorkspace(row);
}

export async function listWorkspaces(db: Db, userId: string) {
  const rows = await db.membership.findMany({
    where: { userId },
    include: { workspace: true },
    orderBy: { createdAt: "asc" },
    take: 1000,
  });
  return rows.map((row) => ({ ...serializeWorkspace(row.workspace), role: row.role }));
}

export async function listMembers(db: Db, workspaceId: string) {
  const rows = await db.membership.findMany({
    where: { workspaceId },
    include: { user: { select: { username: true } } },
    orderBy: { createdAt: "asc" },
    take: 1000,
  });
  return rows.map((row) => ({
    user_id: row.userId,
    username: row.user.username,
    role: row.role,
    created_at: row.createdAt.toISOString(),
  }));
}

export async function addMember(db: Db, workspaceId: string, username: string, role: MemberRole) {
  const user = await db.user.findUnique({ where: { username }, select: { id: true, username: true } });
  if (!user) throw notFound("User");
  try {
    const row = await db.membership.create({ data: { workspaceId, userId: user.id, role } });
    return { user_id: user.id, username: user.username, role: row.role, created_at: row.createdAt.toISOString() };
  } catch (error) {
    if ((error as { code?: string }).code === "P2002") throw conflict(`${username} is already a member`);
    throw error;
  }
}

/** The workspace as its member sees it, with that member's role. */
export async function getWorkspace(db: Db, workspaceId: string, role: MemberRole) {
  const row = await db.workspace.findUnique({ where: { id: workspaceId } });
  if (!row) throw notFound("Workspace");
  return { ...serializeWorkspace(row), role };
}

/** The workspace's name and settings (owners). */
export async function updateWorkspace(db: Db, workspaceId: string, role: MemberRole, patch: z.output<typeof updateWorkspaceBody>) {
  const row = await db.workspace.update({
    where: { id: workspaceId },
    data: {
      name: patch.name,
      autoStartUnblocked: patch.auto_start_unblocked,
      autoMoveTasks: patch.auto_move_tasks,
      maxConcurrentRuns: patch.max_concurrent_runs,
    },
  });
  return { ...serializeWorkspace(row), role };
}

export function serializeWorkspace(row: Workspace) {
  return {
    id: row.id,
    name: row.name,
    auto_start_unblocked: row.autoStartUnblocked,
    auto_move_tasks: row.autoMoveTasks,
    max_concurrent_runs: row.maxConcurrentRuns,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
