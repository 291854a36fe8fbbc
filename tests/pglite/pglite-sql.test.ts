import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { statement } from "@/lib/db/sql";
import { pgliteSql, trimParsers } from "@/lib/db/pglite-sql";
import { pgliteSharedBuffersMb } from "@/lib/config";
import { PGliteWorker } from "@/lib/db/pglite-worker-client";
import { emptyPgliteDir } from "../helpers/empty-pglite";

// The embedded database's prepared statements (lib/db/pglite-sql.ts): prepared once, parameters and
// results as PGlite's own query() gives them, a failure that leaves the session usable, and never
// a statement inside someone else's transaction.

let empty: ReturnType<typeof emptyPgliteDir>;
let pg: PGliteWorker;
beforeAll(async () => {
  empty = emptyPgliteDir();
  pg = new PGliteWorker(empty.dir, { sharedBuffersMb: pgliteSharedBuffersMb() });
  await pg.exec(`CREATE TABLE things (id int PRIMARY KEY, name text NOT NULL, tags text[] NOT NULL, at timestamptz, data json)`);
  await trimParsers(pg);
});
afterAll(async () => {
  await pg?.close();
  empty?.remove();
});

const INSERT = statement("test_things_insert", `INSERT INTO things VALUES ($1, $2, $3, $4, $5) RETURNING id`);
const SELECT = statement(
  "test_things_select",
  `SELECT id, name, tags, at, data, count(*) OVER ()::int8 AS total, ARRAY[id, id + 1] AS ids, true AS yes FROM things WHERE id >= $1 ORDER BY id`,
);

describe("PGlite's prepared statements", () => {
  it("take parameters of each kind and give results parsed as query() would", async () => {
    const sql = pgliteSql(pg);
    const at = new Date("2026-11-26T12:00:00.000Z");
    expect(await sql(INSERT, [1, "one", ["a", "b,c"], at, JSON.stringify({ k: [1] })])).toEqual([{ id: 1 }]);
    expect(await sql(INSERT, [2, "two", [], null, null])).toEqual([{ id: 2 }]);
    const rows = await sql(SELECT, [1]);
    expect(rows).toEqual((await pg.query(SELECT.text, [1])).rows);
    expect(rows).toEqual([
      { id: 1, name: "one", tags: ["a", "b,c"], at, data: { k: [1] }, total: 2, ids: [1, 2], yes: true },
      { id: 2, name: "two", tags: [], at: null, data: null, total: 2, ids: [2, 3], yes: true },
    ]);
  });

  it("prepares each statement once, and answers a failure with the error while the session goes on", async () => {
    const sql = pgliteSql(pg);
    await expect(sql(INSERT, [1, "again", [], null, null])).rejects.toMatchObject({ code: "23505" });
    await expect(sql(statement("test_things_broken", "SELECT nope FROM things"), [])).rejects.toMatchObject({ code: "42703" });
    expect(await sql(SELECT, [2])).toHaveLength(1);
    const [{ count }] = (
      await pg.query<{ count: number }>(`SELECT count(*)::int AS count FROM pg_prepared_statements WHERE name LIKE 'test_things_%'`)
    ).rows;
    expect(count).toBe(2);
  });

  it("waits for a transaction in progress instead of running inside it", async () => {
    const sql = pgliteSql(pg);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = pg.transaction(async (tx) => {
      await tx.query(`INSERT INTO things VALUES (3, 'three', '{}', NULL, NULL)`);
      await held;
      await tx.rollback();
    });
    const read = sql<{ id: number }>(SELECT, [3]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await transaction;
    expect(await read).toEqual([]);
  });
});
