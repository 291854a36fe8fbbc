import { databaseKind } from "@/lib/config";
import type { Db, Tx } from "@/lib/db/client";
import { nextTurn } from "@/lib/db/requests-first";

// A transaction of several heavy statements that must not keep the rest of the server waiting (the
// log writer, lib/runs/append-log-entries.ts). On PGlite an awaited query resolves without the
// event loop taking a turn, so a transaction's statements would run as one uninterrupted task and
// answers already made would wait for it to end; here each statement first waits for a turn of the
// event loop (docs/PERFORMANCE.md, "Log ingestion"). On PostgreSQL every statement is I/O and the
// event loop turns anyway: a plain transaction.

/** `db.$transaction(work)`, on PGlite with a turn of the event loop before each statement of `work`'s `tx`. */
export function transactionInTurns<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  if (databaseKind() !== "pglite") return db.$transaction(work);
  return db.$transaction((tx) => work(inTurns(tx)));
}

/** The client with its raw statements (`$queryRaw…`, `$executeRaw…`) and its models' methods each taking a turn first. */
function inTurns(tx: Tx): Tx {
  const models = new Map<PropertyKey, object>();
  return new Proxy(tx, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      if (typeof key !== "string") return value;
      if (typeof value === "function") return key.startsWith("$") ? afterTurn(value as Method, target) : value;
      if (value === null || typeof value !== "object" || key.startsWith("$") || key.startsWith("_")) return value;
      if (!models.has(key)) models.set(key, modelInTurns(value));
      return models.get(key);
    },
  });
}

function modelInTurns(model: object): object {
  return new Proxy(model, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      return typeof value === "function" ? afterTurn(value as Method, target) : value;
    },
  });
}

type Method = (...args: unknown[]) => unknown;

function afterTurn(method: Method, self: object) {
  return async (...args: unknown[]) => {
    await nextTurn();
    return method.apply(self, args);
  };
}
