import { PGlite, messages } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PGliteWorker } from "@/lib/db/pglite-worker-client";
import { emptyPgliteDirs } from "../../tests/helpers/empty-pglite";

// The embedded database in its own thread (lib/db/pglite-worker-client.ts): the same answers as
// PGlite in this thread, one session kept whole (a transaction is never entered by another caller),
// and a main thread that stays free while a query runs.

// Each database a copy of initdb's output: an in-memory PGlite runs initdb, about 4.7 s of CPU.
const dirs = emptyPgliteDirs();

let pg: PGliteWorker;
let local: PGlite;
beforeAll(async () => {
  pg = new PGliteWorker(dirs.next());
  local = new PGlite(dirs.next());
  const schema = `CREATE TABLE things (id int PRIMARY KEY, name text NOT NULL, tags text[], at timestamptz, data jsonb, big int8, raw bytea)`;
  await Promise.all([pg.exec(schema), local.exec(schema)]);
});
afterAll(async () => {
  await pg?.close();
  await local?.close();
  dirs.removeAll();
});

describe("PGlite in a worker thread", () => {
  it("gives the results PGlite gives in this thread, for parameters and columns of each type", async () => {
    const row = [
      1,
      "one",
      ["a", "b,c", 'q"uote'],
      new Date("2026-11-29T10:00:00.123Z"),
      { k: [1, "x"] },
      2n ** 40n,
      new Uint8Array([0, 1, 255]),
    ];
    const insert = `INSERT INTO things VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`;
    const mine = await pg.query(insert, row);
    expect(mine).toEqual(await local.query(insert, row));
    expect(mine.rows).toEqual([{ id: 1, name: "one", tags: row[2], at: row[3], data: row[4], big: 2 ** 40, raw: row[6] }]);
    const select = `SELECT id, tags, count(*) OVER ()::int AS total FROM things WHERE id = ANY($1::int[])`;
    const asArrays = { rowMode: "array" } as const;
    expect(await pg.query(select, [[1, 2]], asArrays)).toEqual(await local.query(select, [[1, 2]], asArrays));
    expect(await pg.exec(`SELECT 1 AS a; SELECT 'b' AS b`)).toEqual(await local.exec(`SELECT 1 AS a; SELECT 'b' AS b`));
  });

  it("throws database errors as PGlite's DatabaseError, and the session goes on", async () => {
    const failed = await pg.query(`INSERT INTO things (id, name) VALUES (1, 'again')`).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(messages.DatabaseError);
    expect(failed).toMatchObject({ code: "23505", query: expect.stringContaining("INSERT") });
    await expect(pg.query(`SELECT nope FROM things`)).rejects.toMatchObject({ code: "42703" });
    await expect(pg.query(`SELECT $1::int AS n`, ["not a number"])).rejects.toMatchObject({ code: "22P02" });
    expect((await pg.query<{ n: number }>(`SELECT count(*)::int AS n FROM things`)).rows).toEqual([{ n: 1 }]);
  });

  it("keeps a transaction whole: others wait for it, its failure rolls it back", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inside!: () => void;
    const entered = new Promise<void>((resolve) => (inside = resolve));
    const transaction = pg.transaction(async (tx) => {
      await tx.query(`INSERT INTO things (id, name) VALUES (2, 'two')`);
      inside();
      await held;
      await tx.rollback();
    });
    await entered;
    // Sent while the transaction is open: it must neither see the row nor run inside the transaction.
    const read = pg.query<{ n: number }>(`SELECT count(*)::int AS n FROM things WHERE id = 2`);
    const write = pg.query(`INSERT INTO things (id, name) VALUES (3, 'three')`);
    release();
    await transaction;
    expect((await read).rows).toEqual([{ n: 0 }]);
    await write;
    await expect(
      pg.transaction(async (tx) => {
        await tx.query(`INSERT INTO things (id, name) VALUES (4, 'four')`);
        await tx.query(`INSERT INTO things (id, name) VALUES (4, 'four again')`);
      }),
    ).rejects.toMatchObject({ code: "23505" });
    expect((await pg.query<{ id: number }>(`SELECT id FROM things ORDER BY id`)).rows).toEqual([{ id: 1 }, { id: 3 }]);
  });

  it("reads prepared statements' rows as text, straight from the bytes, and still throws their errors", async () => {
    const { protocol } = await import("@electric-sql/pglite");
    const { concat } = await import("@/lib/db/pglite-wire");
    await pg.execAlone(
      concat(
        protocol.serialize.parse({ name: "rows_test", text: `SELECT $1::text AS a, NULL::int AS b, 'é✓' AS c, '' AS d` }),
        protocol.serialize.sync(),
      ),
    );
    const run = (value: string) =>
      pg.execRows(
        concat(
          protocol.serialize.bind({ statement: "rows_test", values: [value] }),
          protocol.serialize.execute({}),
          protocol.serialize.sync(),
        ),
      );
    expect(await run("x".repeat(30_000))).toEqual([["x".repeat(30_000), null, "é✓", ""]]);
    const missing = concat(
      protocol.serialize.bind({ statement: "no_such_statement", values: [] }),
      protocol.serialize.execute({}),
      protocol.serialize.sync(),
    );
    await expect(pg.execRows(missing)).rejects.toMatchObject({ code: "26000" });
  });

  it("answers many callers at once, each with its own result", async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => pg.query<{ n: number }>(`SELECT $1::int * 2 AS n`, [i])));
    expect(answers.map((answer) => answer.rows[0].n)).toEqual(Array.from({ length: 50 }, (_, i) => i * 2));
  });

  it("leaves the main thread free while a query runs", async () => {
    let answered = false;
    const slow = pg.query(`SELECT count(*) FROM generate_series(1, 2000000)`).then(() => (answered = true));
    // Set after the query was sent: in PGlite in this thread it could only run once the query was done.
    const freeMeanwhile = await new Promise<boolean>((resolve) => setTimeout(() => resolve(!answered), 1));
    await slow;
    expect(freeMeanwhile).toBe(true);
  });

  it("says when it is idle: at once when nothing is under way, else once the last caller is answered or the bound passes", async () => {
    await pg.idle(60_000); // nothing under way
    const order: string[] = [];
    const slow = pg.query(`SELECT count(*) FROM generate_series(1, 2000000)`).then(() => order.push("answered"));
    await pg.idle(1).then(() => order.push("bound passed"));
    const idle = pg.idle(60_000).then(() => order.push("idle"));
    await Promise.all([slow, idle]);
    expect(order).toEqual(["bound passed", "answered", "idle"]);
  });

  it("passes notifications to listeners, after the statement that made them", async () => {
    const payloads: string[] = [];
    await pg.listen("Things_Changed", (payload) => payloads.push(payload));
    await pg.exec(`NOTIFY things_changed, 'first'`);
    await pg.transaction(async (tx) => {
      await tx.query(`SELECT pg_notify('things_changed', 'second')`);
      expect(payloads).toEqual(["first"]); // not before the commit
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(payloads).toEqual(["first", "second"]);
  });

  it("starts with PostgreSQL's buffer pool, or the size it is given (PGLITE_SHARED_BUFFERS_MB)", async () => {
    expect((await pg.query<{ shared_buffers: string }>(`SHOW shared_buffers`)).rows).toEqual([{ shared_buffers: "128MB" }]);
    const small = new PGliteWorker(dirs.next(), { sharedBuffersMb: 16 });
    try {
      expect((await small.query<{ shared_buffers: string }>(`SHOW shared_buffers`)).rows).toEqual([{ shared_buffers: "16MB" }]);
    } finally {
      await small.close();
    }
  });

  it("refuses calls once closed", async () => {
    const other = new PGliteWorker(dirs.next());
    await other.query(`SELECT 1`);
    await other.close();
    await expect(other.query(`SELECT 1`)).rejects.toThrow(/thread ended/);
  });
});
