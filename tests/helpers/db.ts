import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { inject } from "vitest";
import type { Db } from "@/lib/db/client";
import { createScratchDatabase } from "../../scripts/lib/postgres.mjs";
import { seedPglite } from "../../scripts/lib/server.mjs";
import { keepEnvironment } from "./environment";

/**
 * A database owned by this test process (not the shared server's): a fresh PGlite directory, or a
 * fresh PostgreSQL database on the PostgreSQL pass. For tests that need the clock or raw rows.
 */
export async function openOwnDatabase() {
  const scratch = inject("databaseKind") === "postgresql" ? await createScratchDatabase("taskboard_unit", { migrated: true }) : undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "taskboard-unit-"));
  seedPglite(scratch?.url, dataDir);
  const restoreEnvironment = keepEnvironment();
  process.env.DATA_DIR = dataDir;
  process.env.DATABASE_URL = scratch?.url ?? "";
  const { connection, closeDb } = await import("@/lib/db/client");
  const { db, sql } = await connection();
  return {
    db,
    sql,
    async close() {
      await closeDb();
      restoreEnvironment();
      await scratch?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** `db`, counting its raw queries (`$queryRawUnsafe`: the workers' and the waits' reads). */
export function countingRawQueries(db: Db): { db: Db; count: () => number } {
  let count = 0;
  const counted = new Proxy(db, {
    get: (target, key) =>
      key === "$queryRawUnsafe"
        ? (...args: unknown[]) => {
            count++;
            return (target.$queryRawUnsafe as (...a: unknown[]) => unknown)(...args);
          }
        : Reflect.get(target, key),
  });
  return { db: counted, count: () => count };
}
