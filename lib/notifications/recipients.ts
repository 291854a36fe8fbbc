import type { Db, Tx } from "@/lib/db/client";

// Who hears what (docs/notifications.md, "Who hears what"). Every list is of current members of
// the workspace; a question goes only to those who may answer it, never to a viewer.

type Reader = Tx | Db;

/** Those of `userIds` who are members of the workspace; with `answerers`, not viewers. */
export async function membersAmong(db: Reader, workspaceId: string, userIds: string[], answerers = false): Promise<string[]> {
  if (userIds.length === 0) return [];
  const rows = await db.membership.findMany({
    where: { workspaceId, userId: { in: [...new Set(userIds)] }, ...(answerers ? { role: { not: "viewer" } } : {}) },
    select: { userId: true },
  });
  const kept = new Set(rows.map((row) => row.userId));
  return [...new Set(userIds)].filter((id) => kept.has(id));
}

/** The people (not agents) assigned to a task, in their order. */
export async function taskAssignees(db: Reader, taskId: string): Promise<string[]> {
  const rows = await db.taskAssignee.findMany({
    where: { taskId, userId: { not: null } },
    select: { userId: true },
    orderBy: [{ position: "asc" }, { id: "asc" }],
  });
  return rows.map((row) => row.userId!);
}

/**
 * A new question's audience: the task's assignees who may answer (with none, the workspace's
 * owners), and everyone who watches the workspace and may answer.
 */
export async function questionAudience(db: Reader, workspaceId: string, taskId: string): Promise<string[]> {
  const assignees = await membersAmong(db, workspaceId, await taskAssignees(db, taskId), true);
  const watchers = await db.membership.findMany({
    where: { workspaceId, watching: true, role: { not: "viewer" } },
    select: { userId: true },
  });
  const first =
    assignees.length > 0
      ? assignees
      : (await db.membership.findMany({ where: { workspaceId, role: "owner" }, select: { userId: true } })).map((row) => row.userId);
  return [...new Set([...first, ...watchers.map((row) => row.userId)])];
}

/** Everyone who may answer a question of the workspace: its owners and members. */
export async function everyAnswerer(db: Reader, workspaceId: string): Promise<string[]> {
  const rows = await db.membership.findMany({ where: { workspaceId, role: { not: "viewer" } }, select: { userId: true } });
  return rows.map((row) => row.userId);
}
