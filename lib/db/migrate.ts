import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

// Applies prisma/migrations/*/migration.sql in name order and records them in _prisma_migrations
// exactly as `prisma migrate deploy` would, so either tool can take over from the other.
// Prisma's native migrate engine cannot be downloaded here, hence this small replacement.

export interface SqlSession {
  query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  exec(sql: string): Promise<unknown>;
}

// Prisma's own advisory lock key, so this and `prisma migrate deploy` exclude each other too.
const MIGRATION_LOCK_KEY = 72707369;

export function defaultMigrationsDir(): string {
  return path.join(process.cwd(), "prisma", "migrations");
}

export async function applyMigrations(session: SqlSession, migrationsDir = defaultMigrationsDir()): Promise<string[]> {
  await session.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
  try {
    await session.exec(CREATE_MIGRATIONS_TABLE);
    const { rows } = await session.query(`SELECT migration_name, finished_at FROM _prisma_migrations WHERE rolled_back_at IS NULL`);
    const failed = rows.find((row) => row.finished_at === null);
    if (failed) {
      throw new Error(
        `Migration ${failed.migration_name} failed earlier and was not resolved; ` +
          "fix the database by hand, then mark it rolled back in _prisma_migrations.",
      );
    }
    const done = new Set(rows.map((row) => String(row.migration_name)));
    const applied: string[] = [];
    for (const name of listMigrations(migrationsDir)) {
      if (done.has(name)) continue;
      await applyOne(session, name, fs.readFileSync(path.join(migrationsDir, name, "migration.sql"), "utf8"));
      applied.push(name);
    }
    return applied;
  } finally {
    await session.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY})`);
  }
}

export function listMigrations(migrationsDir: string): string[] {
  if (!fs.existsSync(migrationsDir)) return [];
  return fs
    .readdirSync(migrationsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(migrationsDir, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort();
}

async function applyOne(session: SqlSession, name: string, sql: string) {
  const id = crypto.randomUUID();
  const checksum = crypto.createHash("sha256").update(sql).digest("hex");
  // The migration and its record commit together, so a crash midway (kill -9, a lost connection)
  // leaves neither behind and the next start simply applies it again. Recorded first and committed
  // apart, it would be left "started, not finished", and every later start refuses to go on. A file
  // that controls transactions itself (or runs what cannot run inside one) runs unwrapped, as Prisma
  // runs it.
  const wrapped = !controlsTransactions(sql);
  try {
    if (wrapped) await session.exec("BEGIN");
    await session.query(
      `INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, applied_steps_count)
       VALUES ($1, $2, $3, now(), 0)`,
      [id, checksum, name],
    );
    await session.exec(sql);
    await session.query(`UPDATE _prisma_migrations SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`, [id]);
    if (wrapped) await session.exec("COMMIT");
  } catch (error) {
    await session.exec("ROLLBACK").catch(() => {});
    // Rolled back with the migration when wrapped, still there when not: either way it stays recorded as failed.
    await session.query(
      `INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, applied_steps_count, logs)
       VALUES ($1, $2, $3, now(), 0, $4) ON CONFLICT (id) DO UPDATE SET logs = EXCLUDED.logs`,
      [id, checksum, name, String(error)],
    );
    throw new Error(`Migration ${name} failed: ${(error as Error).message}`);
  }
}

/** BEGIN/COMMIT of the file's own, or a statement PostgreSQL refuses inside a transaction block. */
function controlsTransactions(sql: string): boolean {
  // Function bodies ($$ … $$, with their BEGIN … END) and comments say nothing about it.
  const statements = sql.replace(/\$(\w*)\$[\s\S]*?\$\1\$/g, "").replace(/--[^\n]*/g, "");
  return /^\s*(BEGIN|START\s+TRANSACTION|VACUUM)\b|^\s*(COMMIT|ROLLBACK|ABORT|END)\s*(WORK|TRANSACTION)?\s*;|\bCONCURRENTLY\b/im.test(
    statements,
  );
}

const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS _prisma_migrations (
  id                  VARCHAR(36) PRIMARY KEY NOT NULL,
  checksum            VARCHAR(64) NOT NULL,
  finished_at         TIMESTAMPTZ,
  migration_name      VARCHAR(255) NOT NULL,
  logs                TEXT,
  rolled_back_at      TIMESTAMPTZ,
  started_at          TIMESTAMPTZ NOT NULL DEFAULT now(),
  applied_steps_count INTEGER NOT NULL DEFAULT 0
)`;
