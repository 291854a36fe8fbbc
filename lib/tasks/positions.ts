import type { Db, Tx } from "@/lib/db/client";
import { conflict } from "@/lib/platform/errors";

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

/**
 * Positions a client may set (PATCH …/tasks/{id}). Far inside float precision, so appending
 * (last + 1) and halving between neighbours keep working; stored values beyond it (from before the
 * bound) still work: see endOfColumn and renumberColumn.
 */
export const MAX_POSITION = 1e9;

/**
 * A position after every task of the column (other than `except`, the task being moved). When the
 * last position is so large that adding 1 no longer changes it, the column is renumbered first.
 */
export async function endOfColumn(tx: Tx, workspaceId: string, column: string, except?: string): Promise<number> {
  const end = between(await lastPosition(tx, workspaceId, column, except), undefined);
  if (end !== null) return end;
  await renumberColumn(tx, workspaceId, column);
  return between(await lastPosition(tx, workspaceId, column), undefined)!;
}

/**
 * A position strictly between `lower` and `upper` (either may be absent), or null when float
 * precision there has run out and the column must be renumbered first.
 */
export function between(lower: number | undefined, upper: number | undefined): number | null {
  if (lower === undefined && upper === undefined) return 1;
  if (upper === undefined) return strictly(Math.floor(lower!) + 1, lower!, Infinity);
  if (lower === undefined) return strictly(Math.ceil(upper) - 1, -Infinity, upper);
  return strictly(lower + (upper - lower) / 2, lower, upper);
}

/**
 * Spreads the column out to whole numbers again, keeping its order, whatever its values were. The
 * unique index is checked row by row, so each row gets a whole number no row of the column holds
 * now (the k-th free one of 1, 2, 3, …): no row ever collides with one not yet rewritten.
 */
export async function renumberColumn(tx: Tx, workspaceId: string, column: string) {
  await tx.$executeRaw`
    WITH col AS (
      SELECT id, position FROM tasks WHERE workspace_id = ${workspaceId} AND status = ${column}
    ), ordered AS (
      SELECT id, row_number() OVER (ORDER BY position) AS rn FROM col
    ), free AS (
      SELECT k, row_number() OVER (ORDER BY k) AS rn
      FROM generate_series(1, 2 * (SELECT count(*) FROM col) + 1) AS k
      WHERE NOT EXISTS (SELECT 1 FROM col WHERE col.position = k)
    )
    UPDATE tasks t SET position = free.k FROM ordered JOIN free USING (rn) WHERE t.id = ordered.id`;
}

/** done_at is set when a task enters `done` and cleared when it leaves. */
export function doneAtFor(from: string, to: string, current: Date | null): Date | null {
  if (to !== "done") return null;
  return from === "done" ? current : new Date();
}

async function lastPosition(tx: Tx, workspaceId: string, column: string, except?: string): Promise<number | undefined> {
  const last = await tx.task.findFirst({
    where: { workspaceId, status: column, ...(except ? { id: { not: except } } : {}) },
    orderBy: { position: "desc" },
    select: { position: true },
  });
  return last?.position;
}

function strictly(value: number, lower: number, upper: number): number | null {
  return value > lower && value < upper ? value : null;
}
