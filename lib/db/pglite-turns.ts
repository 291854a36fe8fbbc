import type { PGlite } from "@electric-sql/pglite";
import { nextTurn } from "@/lib/db/requests-first";

// PGlite answers in the server's own thread, and an awaited query resolves without the event loop
// taking a turn. So statements in a row ran as one uninterrupted task: a run's end and the
// reactions after it, forty statements, kept a request that came meanwhile from even being read for
// 70–80 ms. Now each use of the database (a statement, or a whole transaction) first waits for a
// turn of the event loop, where requests come in (docs/PERFORMANCE.md, "seventh pass").
export function takeTurns(db: PGlite): void {
  const exclusive = db._runExclusiveTransaction.bind(db);
  db._runExclusiveTransaction = async <T>(work: () => Promise<T>): Promise<T> => {
    await nextTurn();
    return exclusive(work);
  };
}
