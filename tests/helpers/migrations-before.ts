import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defaultMigrationsDir, listMigrations } from "@/lib/db/migrate";

/** A temporary migrations directory holding the migrations older than `name`: a database as it was before it. Remove it after. */
export function migrationsBefore(name: string): string {
  const older = fs.mkdtempSync(path.join(os.tmpdir(), "taskboard-upgrade-"));
  for (const migration of listMigrations(defaultMigrationsDir()).filter((other) => other < name)) {
    fs.cpSync(path.join(defaultMigrationsDir(), migration), path.join(older, migration), { recursive: true });
  }
  return older;
}
