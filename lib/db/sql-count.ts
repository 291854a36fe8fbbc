import { AsyncLocalStorage } from "node:async_hooks";
import type { SqlDriverAdapter, SqlDriverAdapterFactory, Transaction } from "@prisma/driver-adapter-utils";

// Counts the SQL statements each request sends, for the `x-sql-statements` response header (so
// tests and the benchmark can prove a route's query count does not grow with its page size).
// Prisma's `query` log event loses the caller's async context, so the count is taken one level
// lower, in the driver adapter, where every statement (BEGIN and COMMIT included) passes.

// On globalThis: Next bundles this module separately for instrumentation (which opens the
// database) and for the routes, and both copies must share one store.
const shared = globalThis as typeof globalThis & { __taskboardSqlCount?: AsyncLocalStorage<{ statements: number }> };
const store = (shared.__taskboardSqlCount ??= new AsyncLocalStorage<{ statements: number }>());

export function countSqlStatements<T>(run: () => Promise<T>): { result: Promise<T>; count: () => number } {
  const counter = { statements: 0 };
  // Awaited inside the store: Prisma queries are lazy thenables that run when first awaited.
  return { result: store.run(counter, async () => await run()), count: () => counter.statements };
}

export function countingAdapter<F extends SqlDriverAdapterFactory>(factory: F): F {
  return new Proxy(factory, {
    get(target, key, receiver) {
      if (key !== "connect") return Reflect.get(target, key, receiver);
      return async () => wrapAdapter(await target.connect());
    },
  });
}

function wrapAdapter(adapter: SqlDriverAdapter): SqlDriverAdapter {
  return new Proxy(adapter, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (key === "queryRaw" || key === "executeRaw" || key === "executeScript") return counted(value.bind(target));
      if (key === "startTransaction") {
        return async (...args: Parameters<SqlDriverAdapter["startTransaction"]>) => {
          bump(); // BEGIN
          return wrapTransaction(await target.startTransaction(...args));
        };
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

// commit() and rollback() send COMMIT or ROLLBACK only where the adapter says `usePhantomQuery`
// (PGlite's); otherwise (pg's) Prisma sends the statement itself through executeRaw, counted there,
// and commit() only gives the connection back to the pool.
const STATEMENTS = ["queryRaw", "executeRaw", "createSavepoint", "rollbackToSavepoint", "releaseSavepoint"];
const ENDS = ["commit", "rollback"];

function wrapTransaction(tx: Transaction): Transaction {
  const counting = tx.options.usePhantomQuery ? [...STATEMENTS, ...ENDS] : STATEMENTS;
  return new Proxy(tx, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (typeof value !== "function") return value;
      const bound = value.bind(target);
      return counting.includes(String(key)) ? counted(bound) : bound;
    },
  });
}

/** For statements sent to the driver directly (lib/db/sql.ts), not through Prisma. */
export function countStatement() {
  bump();
}

function counted<A extends unknown[], R>(fn: (...args: A) => Promise<R>) {
  return (...args: A) => {
    bump();
    return fn(...args);
  };
}

function bump() {
  const counter = store.getStore();
  if (counter) counter.statements++;
}
