import pg from "pg";
import type { SqlSession } from "@/lib/db/migrate";
import { createScratchDatabase } from "../../scripts/lib/postgres.mjs";
import { emptyPgliteDir, openTestPglite } from "./empty-pglite";

export type Query = (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

/**
 * A fresh, empty database of the kind under test, with no server and no migration applied: PGlite
 * in this process, or a scratch PostgreSQL database when TEST_DATABASE=postgresql. For tests of the
 * migrations themselves.
 */
export async function freshDatabase(): Promise<{ session: SqlSession; query: Query; close(): Promise<void> }> {
  if (process.env.TEST_DATABASE === "postgresql") {
    const scratch = await createScratchDatabase("taskboard_fresh");
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    return {
      session: { query: (sql, params) => client.query(sql, params as unknown[]), exec: (sql) => client.query(sql) },
      query: async (sql, params) => (await client.query(sql, params)).rows,
      async close() {
        await client.end();
        await scratch.drop();
      },
    };
  }
  const empty = emptyPgliteDir();
  const db = openTestPglite(empty.dir);
  return {
    session: { query: (sql, params) => db.query(sql, params) as Promise<{ rows: Record<string, unknown>[] }>, exec: (sql) => db.exec(sql) },
    query: async (sql, params) => (await db.query<Record<string, unknown>>(sql, params)).rows,
    async close() {
      await db.close();
      empty.remove();
    },
  };
}
