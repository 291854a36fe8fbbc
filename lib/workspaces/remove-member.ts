import type { Db } from "@/lib/db/client";
import { conflict, notFound } from "@/lib/platform/errors";
import { recordEvents } from "@/lib/events/record-events";

/**
 * Removes a user from a workspace. The workspace's owner rows are locked first, so two owners
 * removing each other at once cannot leave the workspace with none: the second sees one owner left.
 * Their task assignments in the workspace go in the same transaction (a non-member owns nothing
 * there), and each task they left gets a task.updated event, so boards and webhooks see it.
 */
export async function removeMember(db: Db, workspaceId: string, userId: string): Promise<void> {
  await db.$transaction(async (tx) => {
    const owners = await tx.$queryRaw<{ user_id: string }[]>`
      SELECT user_id FROM memberships WHERE workspace_id = ${workspaceId} AND role = 'owner' FOR UPDATE`;
    const membership = await tx.membership.findUnique({ where: { workspaceId_userId: { workspaceId, userId } }, select: { role: true } });
    if (!membership) throw notFound("Member");
    if (membership.role === "owner" && owners.length <= 1)
      throw conflict("The last owner cannot be removed; make another member an owner first");
    await tx.membership.delete({ where: { workspaceId_userId: { workspaceId, userId } } });
    const assigned = await tx.taskAssignee.findMany({
      where: { workspaceId, userId },
      select: { taskId: true },
      orderBy: { taskId: "asc" },
    });
    if (assigned.length === 0) return;
    await tx.taskAssignee.deleteMany({ where: { workspaceId, userId } });
    // Positions of the others stay as they were: gaps keep their order.
    await recordEvents(
      tx,
      workspaceId,
      assigned.map((row) => ({ type: "task.updated" as const, taskId: row.taskId })),
    );
  });
}
