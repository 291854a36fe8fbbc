// Fails when prisma/schema.prisma was edited without `npm run db:diff -- <name>`: the app applies
// migrations, not the schema, so such an edit would reach no database.
import { copyFile, mkdtemp, appendFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { diffMigrationsToSchema } from "../../scripts/lib/schema-engine.mjs";
import { emptyPgliteDirs } from "../helpers/empty-pglite";

const root = path.resolve(import.meta.dirname, "../..");
const migrationsDir = path.join(root, "prisma", "migrations");
const schemaPath = path.join(root, "prisma", "schema.prisma");

// Each diff boots a PostgreSQL (PGlite) on a copy of initdb's output; vitest's default 5 s is too tight.
const TIMEOUT = 120_000; // prisma migrate diff alone takes about 18 s here; more under load

describe("prisma migrations", () => {
  const tempDirs: string[] = [];
  const databases = emptyPgliteDirs();
  afterAll(async () => {
    await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
    databases.removeAll();
  });

  it(
    "match prisma/schema.prisma (run `npm run db:diff -- <name>` if this fails)",
    async () => {
      const sql = await diffMigrationsToSchema({ migrationsDir, schemaPath, emptyDataDir: databases.next() });
      expect(sql.trim(), `schema.prisma differs from the migrations; missing migration:\n${sql}`).toBe("");
    },
    TIMEOUT,
  );

  // Guards against a check that passes because it compares nothing.
  it(
    "detect a schema change that no migration covers",
    async () => {
      const dir = await mkdtemp(path.join(os.tmpdir(), "migrations-drift-"));
      tempDirs.push(dir);
      const changedSchema = path.join(dir, "schema.prisma");
      await copyFile(schemaPath, changedSchema);
      await appendFile(changedSchema, '\nmodel DriftProbe {\n  id String @id\n\n  @@map("drift_probe")\n}\n');

      const sql = await diffMigrationsToSchema({ migrationsDir, schemaPath: changedSchema, emptyDataDir: databases.next() });
      expect(sql).toContain('CREATE TABLE "drift_probe"');
    },
    TIMEOUT,
  );
});
