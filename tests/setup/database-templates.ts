import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { applyMigrations, listMigrations } from "@/lib/db/migrate";
import { root } from "../../scripts/lib/build-state.mjs";
import { postgresAdminUrl } from "../../scripts/lib/postgres.mjs";

// A fresh PGlite directory spends about 8 s in initdb and 4 more in the migrations, and every test
// server or own database used to pay that. The tests now copy a migrated template instead: one per
// set of migrations, kept between runs (node_modules/.cache) so a single test file pays it once.
// The migrations themselves are still tested from empty (lib/db/migrate.test.ts, tests/postgres/migrate-*),
// on a copy of an empty template (initdb's output, which is the same every time), and `npm start`
// and the browser tests' server still run initdb and migrate a fresh directory.

const MIGRATIONS = path.join(root, "prisma", "migrations");

const pgliteVersion = (): string =>
  JSON.parse(fs.readFileSync(path.join(root, "node_modules/@electric-sql/pglite/package.json"), "utf8")).version;

/** Names the migrations (and the PGlite version): a template is reused only for exactly these. */
function migrationsKey(): string {
  const hash = crypto.createHash("sha256");
  hash.update(pgliteVersion());
  for (const name of listMigrations(MIGRATIONS)) hash.update(name).update(fs.readFileSync(path.join(MIGRATIONS, name, "migration.sql")));
  return hash.digest("hex").slice(0, 12);
}

const cache = path.join(root, "node_modules", ".cache", "taskboard-tests");

/**
 * An empty PGlite data directory, as initdb leaves it (copy it, never open it): made once per PGlite
 * version. A new PGlite runs initdb first, about 4.7 s of CPU here; a copy of this opens in about
 * 1.4 s. For the tests of the migrations themselves and of PGlite (tests/helpers/empty-pglite.ts),
 * and the start of the migrated template below.
 */
export async function pgliteEmptyTemplate(): Promise<string> {
  return cachedTemplate(
    `pglite-empty-${pgliteVersion()}`,
    (entry) => entry.startsWith("pglite-empty-"),
    async (making) => {
      const { PGlite } = await import("@electric-sql/pglite");
      await (await PGlite.create(making)).close();
    },
  );
}

/** A migrated PGlite data directory (copy it, never open it), made once per set of migrations. */
export async function pgliteTemplate(): Promise<string> {
  const empty = await pgliteEmptyTemplate();
  return cachedTemplate(
    `pglite-${migrationsKey()}`,
    (entry) => /^pglite-[0-9a-f]{12}$/.test(entry),
    async (making) => {
      fs.cpSync(empty, making, { recursive: true });
      const { PGlite } = await import("@electric-sql/pglite");
      const db = new PGlite(making);
      try {
        await applyMigrations({ query: (sql, params) => db.query(sql, params) as never, exec: (sql) => db.exec(sql) }, MIGRATIONS);
      } finally {
        await db.close();
      }
    },
  );
}

/**
 * `name` under the cache, made by `make` unless it is there; its other versions (`sibling`) removed.
 * Made aside and renamed into place: a parallel run (the other database's pass) never sees half a
 * template.
 */
async function cachedTemplate(name: string, sibling: (entry: string) => boolean, make: (dir: string) => Promise<void>): Promise<string> {
  const target = path.join(cache, name);
  if (fs.existsSync(path.join(target, "PG_VERSION"))) return target;
  fs.mkdirSync(cache, { recursive: true });
  const making = fs.mkdtempSync(path.join(cache, "making-"));
  await make(making);
  for (const old of fs.readdirSync(cache))
    if (sibling(old) && old !== name) fs.rmSync(path.join(cache, old), { recursive: true, force: true });
  try {
    fs.renameSync(making, target);
  } catch {
    fs.rmSync(making, { recursive: true, force: true }); // the other pass made it first
  }
  return target;
}

/** A migrated PostgreSQL database to create scratch databases from (`CREATE DATABASE … TEMPLATE`). */
export async function postgresTemplate(): Promise<string> {
  const name = `taskboard_template_${migrationsKey()}`;
  const admin = new pg.Client({ connectionString: postgresAdminUrl() });
  await admin.connect();
  try {
    const { rows } = await admin.query(`SELECT datname FROM pg_database WHERE datname LIKE 'taskboard_template_%'`);
    if (rows.some((row) => row.datname === name)) return name;
    const making = `${name}_${crypto.randomBytes(3).toString("hex")}`;
    await admin.query(`CREATE DATABASE ${making}`);
    const url = new URL(postgresAdminUrl());
    url.pathname = `/${making}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      await applyMigrations(
        { query: (sql, params) => client.query(sql, params as unknown[]), exec: (sql) => client.query(sql) },
        MIGRATIONS,
      );
    } finally {
      await client.end();
    }
    try {
      await admin.query(`ALTER DATABASE ${making} RENAME TO ${name}`);
      await admin.query(`COMMENT ON DATABASE ${name} IS '${TEMPLATE_COMMENT} ${new Date().toISOString()}'`);
    } catch {
      await admin.query(`DROP DATABASE IF EXISTS ${making}`); // the other run made it first
    }
    await dropStaleTemplates(admin, name);
    return name;
  } finally {
    await admin.end();
  }
}

const TEMPLATE_COMMENT = "taskboard test template, made";
const STALE_MS = 24 * 60 * 60 * 1000;

/**
 * Templates of other sets of migrations, once a day old. Not at once: another checkout's run (a
 * branch, a second working copy, CI beside a developer) may be copying its own template right now,
 * and dropping it failed that whole run ("template database … does not exist").
 */
async function dropStaleTemplates(admin: pg.Client, keep: string) {
  const { rows } = await admin.query<{ datname: string; comment: string | null }>(
    `SELECT datname, shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname LIKE 'taskboard_template_%'`,
  );
  for (const row of rows) {
    if (row.datname === keep) continue;
    const made = row.comment?.startsWith(TEMPLATE_COMMENT) ? Date.parse(row.comment.slice(TEMPLATE_COMMENT.length + 1)) : NaN;
    // A template without the comment is from before it was written, or half made by a run that died.
    if (!Number.isNaN(made) && Date.now() - made < STALE_MS) continue;
    if (Number.isNaN(made) && /_[0-9a-f]{6}$/.test(row.datname.slice("taskboard_template_".length + 12))) continue;
    await admin.query(`DROP DATABASE IF EXISTS ${row.datname}`).catch(() => {});
  }
}
