import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { applyMigrations, type SqlSession } from "@/lib/db/migrate";
import { createScratchDatabase } from "../../scripts/lib/postgres.mjs";

// A server killed while it migrates at start-up: PostgreSQL ends its session, rolling back what was
// not committed. The next start must apply the migration, not refuse over a half-recorded one.

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "taskboard-migrations-"));
let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
afterAll(async () => {
  await scratch?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("a migration interrupted by a crash", () => {
  it("is applied by the next start, recorded once", async () => {
    scratch = await createScratchDatabase("taskboard_migrate");
    migration("20000101000000_first", "CREATE TABLE first_table (id int);");
    migration("20000102000000_slow", "CREATE TABLE slow_table (id int);\nSELECT pg_sleep(5);\nALTER TABLE slow_table ADD COLUMN x int;");

    const crashing = await session();
    const pid = (await crashing.client.query("SELECT pg_backend_pid() AS pid")).rows[0].pid as number;
    const interrupted = applyMigrations(crashing.session, dir).catch((error: Error) => error);
    const observer = await session();
    // The crash: the migrating session's connection dies in the middle of the slow migration.
    for (;;) {
      const { rows } = await observer.client.query("SELECT query FROM pg_stat_activity WHERE pid = $1", [pid]);
      if (String(rows[0]?.query).includes("pg_sleep")) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await observer.client.query("SELECT pg_terminate_backend($1)", [pid]);
    expect(await interrupted).toBeInstanceOf(Error);
    await crashing.client.end().catch(() => {});

    expect(await applyMigrations(observer.session, dir)).toEqual(["20000102000000_slow"]);
    const { rows } = await observer.client.query("SELECT migration_name, finished_at FROM _prisma_migrations ORDER BY migration_name");
    expect(rows).toMatchObject([
      { migration_name: "20000101000000_first", finished_at: expect.any(Date) },
      { migration_name: "20000102000000_slow", finished_at: expect.any(Date) },
    ]);
    await observer.client.query("SELECT x FROM slow_table");
    await observer.client.end();
  });
});

function migration(name: string, sql: string) {
  fs.mkdirSync(path.join(dir, name));
  fs.writeFileSync(path.join(dir, name, "migration.sql"), sql);
}

async function session() {
  const client = new pg.Client({ connectionString: scratch.url });
  await client.connect();
  client.on("error", () => {}); // the terminated one reports its end here
  const sqlSession: SqlSession = {
    query: (sql, params) => client.query(sql, params as unknown[]),
    exec: (sql) => client.query(sql),
  };
  return { client, session: sqlSession };
}
