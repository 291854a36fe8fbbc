import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { applyMigrations, defaultMigrationsDir, listMigrations, type SqlSession } from "@/lib/db/migrate";
import { pgliteSharedBuffersMb } from "@/lib/config";
import { PGliteWorker } from "@/lib/db/pglite-worker-client";
import { emptyPgliteDir } from "../../tests/helpers/empty-pglite";

// On the embedded database as the server opens it: a data directory (initdb's output, copied) in
// its own thread (lib/db/pglite-worker-client.ts).
const pgliteSession = (db: PGliteWorker): SqlSession => ({
  query: (sql, params) => db.query(sql, params) as Promise<{ rows: Record<string, unknown>[] }>,
  exec: (sql) => db.exec(sql),
});

describe("migrations", () => {
  it("applies every migration once, records it as Prisma does, and is a no-op when up to date", async () => {
    const empty = emptyPgliteDir();
    const db = new PGliteWorker(empty.dir, { sharedBuffersMb: pgliteSharedBuffersMb() });
    const names = listMigrations(defaultMigrationsDir());
    expect(names.length).toBeGreaterThan(0);
    expect(await applyMigrations(pgliteSession(db))).toEqual(names);
    expect(await applyMigrations(pgliteSession(db))).toEqual([]);
    const { rows } = await db.query<{ migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number }>(
      "SELECT migration_name, checksum, finished_at, applied_steps_count FROM _prisma_migrations ORDER BY migration_name",
    );
    expect(rows.map((row) => row.migration_name)).toEqual(names);
    const sql = fs.readFileSync(path.join(defaultMigrationsDir(), names[0], "migration.sql"));
    expect(rows[0].checksum).toBe(crypto.createHash("sha256").update(sql).digest("hex"));
    expect(rows.every((row) => row.finished_at !== null && row.applied_steps_count === 1)).toBe(true);
    await db.close();
    empty.remove();
  });

  it("records a failed migration and refuses to go on past it", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "taskboard-migrations-"));
    fs.mkdirSync(path.join(dir, "20000101000000_ok"));
    fs.writeFileSync(path.join(dir, "20000101000000_ok", "migration.sql"), "CREATE TABLE ok_table (id int);");
    fs.mkdirSync(path.join(dir, "20000102000000_broken"));
    fs.writeFileSync(path.join(dir, "20000102000000_broken", "migration.sql"), "ALTER TABLE no_such_table ADD COLUMN x int;");
    const empty = emptyPgliteDir();
    const db = new PGliteWorker(empty.dir, { sharedBuffersMb: pgliteSharedBuffersMb() });
    await expect(applyMigrations(pgliteSession(db), dir)).rejects.toThrow(/20000102000000_broken failed/);
    const { rows } = await db.query<{ migration_name: string; finished_at: Date | null; logs: string | null }>(
      "SELECT migration_name, finished_at, logs FROM _prisma_migrations ORDER BY migration_name",
    );
    expect(rows).toMatchObject([
      { migration_name: "20000101000000_ok", finished_at: expect.any(Date) },
      { migration_name: "20000102000000_broken", finished_at: null, logs: expect.stringMatching(/no_such_table/) },
    ]);
    await expect(applyMigrations(pgliteSession(db), dir)).rejects.toThrow(/failed earlier/);
    await db.close();
    empty.remove();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
