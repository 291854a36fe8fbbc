import { notFound, ValidationError } from "@/lib/platform/errors";
import { getSql, type Db, type Tx } from "@/lib/db/client";
import { describeTask, type TaskRef } from "@/lib/dependencies/task-refs";
import { recordEvents } from "@/lib/events/record-events";
import { loadTask } from "@/lib/tasks/load-tasks";

/**
 * "task_id is blocked by blocker_id". Idempotent: an existing dependency answers as a new one does
 * (without a second event). 404 when either task is not in the workspace, 422 for a task blocking
 * itself or a dependency that would close a cycle (the message names the tasks of that cycle).
 *
 * The cycle check and the insert run under a transaction-scoped advisory lock per workspace, so two
 * concurrent adds (A waits for B, B waits for A) cannot each pass the check before the other commits.
 */
export async function addDependency(db: Db, workspaceId: string, taskId: string, blockerId: string) {
  if (taskId === blockerId) throw invalidBlocker(blockerId, "a task cannot be blocked by itself");
  await db.$transaction(async (tx) => {
    await lockDependencies(tx, workspaceId);
    const { task, blocker } = await findPair(tx, workspaceId, taskId, blockerId);
    const existing = await tx.taskDependency.findUnique({ where: { taskId_blockerId: { taskId, blockerId } }, select: { taskId: true } });
    if (existing) return;
    const cycle = await cycleThrough(tx, workspaceId, task, blocker);
    if (cycle) {
      throw invalidBlocker(
        blockerId,
        `this dependency would close a cycle: ${[task, ...cycle].map(describeTask).join(" → ")} (each waits for the next)`,
        { cycle: [task, ...cycle].map(({ id, number, title }) => ({ id, number, title })) },
      );
    }
    await tx.taskDependency.create({ data: { taskId, blockerId, workspaceId } });
    await recordEvents(tx, workspaceId, dependencyEvents("task.dependency_added", task, blocker));
  });
  return (await loadTask(await getSql(), workspaceId, taskId))!;
}

/** One event for each of the two tasks, so each one's activity shows the change. */
export function dependencyEvents(type: "task.dependency_added" | "task.dependency_removed", task: TaskRef, blocker: TaskRef) {
  const data = { task: refOf(task), blocker: refOf(blocker) };
  return [
    { type, taskId: task.id, data },
    { type, taskId: blocker.id, data },
  ];
}

/** Held until commit; adds and removals in one workspace take turns. Key: (72707370, hash of the workspace id). */
export async function lockDependencies(tx: Tx, workspaceId: string) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(72707370, hashtext(${workspaceId}))`;
}

export async function findPair(tx: Tx, workspaceId: string, taskId: string, blockerId: string) {
  const rows = await tx.task.findMany({
    where: { workspaceId, id: { in: [taskId, blockerId] } },
    select: { id: true, number: true, title: true },
  });
  const task = rows.find((row) => row.id === taskId);
  const blocker = rows.find((row) => row.id === blockerId);
  if (!task) throw notFound("Task");
  if (!blocker) throw notFound("Blocker task");
  return { task, blocker };
}

/**
 * The tasks from the blocker back to the task when the blocker already waits (directly or through
 * others) for the task, else null. A recursive CTE walks the blocker's blockers; it keeps each edge
 * once (UNION), so its work is bounded by the workspace's dependencies, and the path is then
 * followed back through the edges it found.
 */
async function cycleThrough(tx: Tx, workspaceId: string, task: TaskRef, blocker: TaskRef): Promise<TaskRef[] | null> {
  const edges = await tx.$queryRaw<{ id: string; via: string }[]>`
    WITH RECURSIVE walk(id, via) AS (
      SELECT d.blocker_id, d.task_id FROM task_dependencies d
      WHERE d.task_id = ${blocker.id} AND d.workspace_id = ${workspaceId}
      UNION
      SELECT d.blocker_id, d.task_id FROM walk w JOIN task_dependencies d ON d.task_id = w.id
      WHERE w.id <> ${task.id} AND d.workspace_id = ${workspaceId}
    )
    SELECT id, via FROM walk`;
  const reachedFrom = new Map<string, string>();
  for (const edge of edges) if (!reachedFrom.has(edge.id)) reachedFrom.set(edge.id, edge.via);
  if (!reachedFrom.has(task.id)) return null;
  // Breadth-first from the blocker would give the shortest cycle; any one names the problem.
  const path: string[] = [task.id];
  for (let at = task.id; at !== blocker.id;) {
    at = reachedFrom.get(at)!;
    path.unshift(at);
    if (path.length > edges.length + 2) break;
  }
  const named = await tx.task.findMany({ where: { workspaceId, id: { in: path } }, select: { id: true, number: true, title: true } });
  const byId = new Map(named.map((row) => [row.id, row]));
  return path.map((id) => byId.get(id)!).filter(Boolean);
}

function invalidBlocker(blockerId: string, message: string, ctx?: Record<string, unknown>) {
  return new ValidationError([
    { type: "value_error", loc: ["path", "blocker_id"], msg: `Value error, ${message}`, input: blockerId, ...(ctx ? { ctx } : {}) },
  ]);
}

function refOf(task: TaskRef): TaskRef {
  return { id: task.id, number: task.number, title: task.title };
}
