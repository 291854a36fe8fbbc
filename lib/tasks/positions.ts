import type { Db, Tx } from "@/lib/db/client";
import { conflict } from "@/lib/api/errors";

// Positions are floats ordering the tasks of one column; the UNIQUE (workspace_id, status, position)
// index keeps two tasks off one spot. Every writer of a column's positions takes that column's
// advisory lock first, so concurrent appends and moves queue instead of colliding; a P2002 that
// still slips through (e.g. a client-chosen position) is retried, then reported as 409.

const ATTEMPTS = 3;

export async function inColumnTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.$transaction(work, { maxWait: 10_000, timeout: 15_000 });
    } catch (error) {
      if ((error as { code?: string }).code !== "P2002") throw error;
      if (attempt >= ATTEMPTS) throw conflict("Another task holds that position in the column; reload and retry");
    }
  }
}

/** Held until the transaction ends. Always taken BEFORE any task row lock, to keep one lock order. */
export async function lockColumn(tx: Tx, workspaceId: string, column: string) {
  await tx.$queryRaw`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtext(${workspaceId}), hashtext(${column}))`;
}

/** A position after every task of the column (other than `except`, the task being moved). */
export async function endOfColumn(tx: Tx, workspaceId: string, column: string, except?: string): Promise<number> {
  const last = await tx.task.findFirst({
    where: { workspaceId, status: column, ...(except ? { id: { not: except } } : {}) },
    orderBy: { position: "desc" },
    select: { position: true },
  });
  return last ? Math.floor(last.position) + 1 : 1;
}

/**
 * A position strictly between `lower` and `upper` (either may be absent), or null when float
 * precision between them has run out and the column must be renumbered first.
 */
export function between(lower: number | undefined, upper: number | undefined): number | null {
  if (lower === undefined && upper === undefined) return 1;
  if (upper === undefined) return Math.floor(lower!) + 1;
  if (lower === undefined) return Math.ceil(upper) - 1;
  const middle = lower + (upper - lower) / 2;
  return middle > lower && middle < upper ? middle : null;
}

/**
 * Spreads the column out to whole numbers again, keeping its order. The new values all lie above
 * the old maximum, so no row ever collides with one not yet rewritten (the unique index is checked
 * row by row).
 */
export async function renumberColumn(tx: Tx, workspaceId: string, column: string) {
  await tx.$executeRaw`
    WITH ordered AS (
      SELECT id, row_number() OVER (ORDER BY position) AS rn FROM tasks
      WHERE workspace_id = ${workspaceId} AND status = ${column}
    ), base AS (
      SELECT COALESCE(floor(max(position)), 0) AS b FROM tasks WHERE workspace_id = ${workspaceId} AND status = ${column}
    )
    UPDATE tasks t SET position = base.b + ordered.rn FROM ordered, base WHERE t.id = ordered.id`;
}

/** done_at is set when a task enters `done` and cleared when it leaves. */
export function doneAtFor(from: string, to: string, current: Date | null): Date | null {
  if (to !== "done") return null;
  return from === "done" ? current : new Date();
}
