import { notFound } from "@/lib/platform/errors";
import type { Db } from "@/lib/db/client";
import type { DependencyTask } from "@/lib/dependencies/schemas";

/** A task's blockers and dependants with their titles and statuses, for the task dialog; one statement. */
export async function listDependencies(db: Db, workspaceId: string, taskId: string) {
  const rows = await db.$queryRaw<(DependencyTask & { side: "blocked_by" | "blocks" | "self" })[]>`
    SELECT 'self' AS side, t.id, t.number, t.title, t.status, NULL::timestamptz AS at
    FROM tasks t WHERE t.id = ${taskId} AND t.workspace_id = ${workspaceId}
    UNION ALL
    SELECT 'blocked_by', b.id, b.number, b.title, b.status, d.created_at
    FROM task_dependencies d JOIN tasks b ON b.id = d.blocker_id
    WHERE d.task_id = ${taskId} AND d.workspace_id = ${workspaceId}
    UNION ALL
    SELECT 'blocks', w.id, w.number, w.title, w.status, d.created_at
    FROM task_dependencies d JOIN tasks w ON w.id = d.task_id
    WHERE d.blocker_id = ${taskId} AND d.workspace_id = ${workspaceId}
    ORDER BY at NULLS FIRST, id`;
  if (!rows.some((row) => row.side === "self")) throw notFound("Task");
  const pick = (side: "blocked_by" | "blocks") =>
    rows.filter((row) => row.side === side).map(({ id, number, title, status }) => ({ id, number, title, status }));
  return { blocked_by: pick("blocked_by"), blocks: pick("blocks") };
}
