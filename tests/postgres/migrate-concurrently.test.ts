import pg from "pg";
import { describe, expect, it } from "vitest";
import { applyMigrations, defaultMigrationsDir, listMigrations, type SqlSession } from "@/lib/db/migrate";
import { createScratchDatabase } from "../../scripts/lib/postgres.mjs";

describe("migrations on PostgreSQL", () => {
  it("two instances starting together on PostgreSQL apply each migration once", async () => {
    const scratch = await createScratchDatabase("taskboard_migrate");
    const clients = [new pg.Client({ connectionString: scratch.url }), new pg.Client({ connectionString: scratch.url })];
    await Promise.all(clients.map((client) => client.connect()));
    const sessions = clients.map((client): SqlSession => ({
      query: (sql, params) => client.query(sql, params as unknown[]),
      exec: (sql) => client.query(sql),
    }));
    const results = await Promise.all(sessions.map((session) => applyMigrations(session)));
    expect(results.flat().sort()).toEqual(listMigrations(defaultMigrationsDir()));
    const { rows } = await clients[0].query("SELECT count(*)::int AS n FROM _prisma_migrations");
    expect(rows[0].n).toBe(listMigrations(defaultMigrationsDir()).length);
    await Promise.all(clients.map((client) => client.end()));
    await scratch.drop();
  });
});
