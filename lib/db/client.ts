import os from "node:os";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { PrismaClient, type Prisma } from "@/lib/generated/prisma/client";
import { databaseKind, databaseUrl, ensureDataDir, pgliteSharedBuffersMb } from "@/lib/config";
import { acquireDirLock } from "@/lib/db/pglite-lock";
import { applyMigrations, type SqlSession } from "@/lib/db/migrate";
import { countingAdapter } from "@/lib/db/sql-count";
import { postgresSql, type Sql } from "@/lib/db/sql";

export type Db = InstanceType<typeof PrismaClient>;
/** The client inside `db.$transaction(async (tx) => …)`: functions that take one run inside their caller's transaction. */
export type Tx = Prisma.TransactionClient;

// What one process holds open. Kept on globalThis so that `next dev` reloads, and the separate
// bundles Next makes for instrumentation and routes, all share one PGlite instance and one pool.
interface Connection {
  db: Db;
  /** Prepared statements for the hot read paths, beside Prisma (see lib/db/sql.ts). */
  sql: Sql;
  kind: "pglite" | "postgresql";
  /** PostgreSQL only: the pool itself, for libraries that speak to it directly (the login limiters). */
  pool?: import("pg").Pool;
  /** PGlite only: LISTEN on the embedded database (PostgreSQL listens on a connection of its own, lib/events/postgres-relay.ts). */
  listen?(channel: string, onPayload: (payload: string) => void): Promise<void>;
  close(): Promise<void>;
}

const state = globalThis as typeof globalThis & { __taskboardDb?: Promise<Connection> };

/** Opens the database on first use (never at import, so `next build` never touches it) and migrates it. */
export async function getDb(): Promise<Db> {
  return (await connection()).db;
}

export async function getSql(): Promise<Sql> {
  return (await connection()).sql;
}

export function connection(): Promise<Connection> {
  state.__taskboardDb ??= open().catch((error) => {
    state.__taskboardDb = undefined;
    throw error;
  });
  return state.__taskboardDb;
}

export async function closeDb(): Promise<void> {
  const pending = state.__taskboardDb;
  state.__taskboardDb = undefined;
  if (pending) await (await pending).close();
}

async function open(): Promise<Connection> {
  return databaseKind() === "postgresql" ? openPostgres(databaseUrl()!) : openPglite(ensureDataDir());
}

async function openPglite(dir: string): Promise<Connection> {
  const { PGliteWorker } = await import("@/lib/db/pglite-worker-client");
  const { PrismaPGlite } = await import("pglite-prisma-adapter");
  const { pgliteSql, trimParsers } = await import("@/lib/db/pglite-sql");
  const { waitForIdleWith } = await import("@/lib/db/requests-first");
  const release = await acquireDirLock(path.join(dir, "pglite.lock"));
  process.once("exit", release);
  // In a thread of its own, so that queries run beside the requests, not in their thread
  // (lib/db/pglite-worker-client.ts).
  const pg = new PGliteWorker(path.join(dir, "pglite"), { sharedBuffersMb: pgliteSharedBuffersMb() });
  try {
    await pg.waitReady;
    await applyMigrations({
      query: (sql, params) => pg.query(sql, params) as Promise<{ rows: Record<string, unknown>[] }>,
      exec: (sql) => pg.exec(sql),
    });
    // As on PostgreSQL (openPostgres): the prepared statements of lib/db/sql.ts keep one plan.
    await pg.exec("SET plan_cache_mode = force_generic_plan");
    await trimParsers(pg);
    // Runners' log batches wait for the statements under way (lib/db/requests-first.ts).
    waitForIdleWith((maxMs) => pg.idle(maxMs));
    // The adapter calls query, exec and transaction, which PGliteWorker has with PGlite's meaning.
    const db = new PrismaClient({ adapter: countingAdapter(new PrismaPGlite(pg as unknown as PGlite)) });
    return {
      db,
      sql: pgliteSql(pg),
      kind: "pglite",
      listen: (channel, onPayload) => pg.listen(channel, onPayload),
      async close() {
        await db.$disconnect();
        await pg.close();
        release();
      },
    };
  } catch (error) {
    await pg.close();
    release();
    throw error;
  }
}

async function openPostgres(url: string): Promise<Connection> {
  const pg = await import("pg");
  const { PrismaPg } = await import("@prisma/adapter-pg");
  await migratePostgres(url);
  const pool = new pg.default.Pool({
    connectionString: url,
    // Twice the cores by default: more backends than that cannot run at once on a machine this
    // size, they only take turns with this process (at 20 concurrent requests on 2 cores, a pool
    // of 10 had clearly longer p99 tails than one of 4; docs/PERFORMANCE.md).
    max: Number(process.env.DATABASE_POOL_SIZE) || Math.max(4, 2 * os.availableParallelism()),
    // For the named statements of lib/db/sql.ts (Prisma's are unnamed, planned per use either way):
    // plan once and keep the plan. Left to itself PostgreSQL re-plans the board's statements on
    // every execution, because the generic plan's estimate (LIMIT unknown) looks dearer than a
    // custom one; the plans are the same index scans. JIT off: that dear estimate would otherwise
    // trigger ~20 ms of JIT compilation for a query that runs in 0.6 ms.
    options: "-c plan_cache_mode=force_generic_plan -c jit=off",
  });
  const db = new PrismaClient({ adapter: countingAdapter(new PrismaPg(pool)) });
  return {
    db,
    sql: postgresSql(pool),
    kind: "postgresql",
    pool,
    async close() {
      await db.$disconnect();
      await pool.end();
    },
  };
}

/** Applies pending migrations on one dedicated connection (advisory locks belong to a session). */
export async function migratePostgres(url: string): Promise<string[]> {
  const pg = await import("pg");
  const client = new pg.default.Client({ connectionString: url });
  await client.connect();
  try {
    const session: SqlSession = {
      query: (sql, params) => client.query(sql, params as unknown[]),
      exec: (sql) => client.query(sql),
    };
    return await applyMigrations(session);
  } finally {
    await client.end();
  }
}
