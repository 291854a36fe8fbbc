// Each SQL function of the database has one source, prisma/sql/functions/<name>.sql; migrations that
// change one are generated from it (`npm run db:function -- <name>`, docs/sql-functions.md). This
// migrates a fresh database and compares every function in its public schema with its file, so a
// migration (or a merge of two) that redefines a function and drops a field, or a comment inside its
// body, fails here instead of reaching the board silently.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { applyMigrations, defaultMigrationsDir } from "@/lib/db/migrate";
import { freshDatabase, type Query } from "../helpers/fresh-database";

const functionsDir = path.resolve(import.meta.dirname, "../../prisma/sql/functions");
const SCRATCH = "sqlfn_expected";

// Each case migrates a fresh database: ~25 migrations, slow on a busy 2-core machine.
const TIMEOUT = 120_000;

/**
 * pg_get_functiondef of every function of the public schema (extensions' own excluded), and of
 * each file's statement created in a scratch schema, keyed by name. Both sides come from the same
 * server's printer, so only a real difference (signature, return type, language, options, or any
 * byte of the body) shows, whatever the files' spacing outside the body.
 */
async function functionDefinitions(query: Query) {
  const definitionsIn = async (schema: string) => {
    const rows = await query(
      `SELECT p.proname AS name, pg_get_functiondef(p.oid) AS def FROM pg_proc p
       JOIN pg_namespace n ON n.oid = p.pronamespace
       WHERE n.nspname = '${schema}' AND p.prokind = 'f'
         AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')
       ORDER BY 1, 2`,
    );
    const defs: Record<string, string> = {};
    for (const row of rows) {
      const name = String(row.name);
      // One file per name: an overload would need a second file that this layout has no place for.
      defs[name] = name in defs ? `${defs[name]}\n-- AND AN OVERLOAD:\n${row.def}` : String(row.def);
    }
    return defs;
  };

  const live = await definitionsIn("public");
  await query(`DROP SCHEMA IF EXISTS ${SCRATCH} CASCADE`);
  await query(`CREATE SCHEMA ${SCRATCH}`);
  const files: Record<string, string> = {};
  try {
    for (const file of fs.readdirSync(functionsDir).filter((name) => name.endsWith(".sql"))) {
      // The file's unqualified CREATE lands in the scratch schema, the first of the search path.
      await query(`SET search_path = ${SCRATCH}, public`);
      await query(fs.readFileSync(path.join(functionsDir, file), "utf8"));
      await query("SET search_path = public");
      const created = await definitionsIn(SCRATCH);
      const name = file.slice(0, -".sql".length);
      expect(Object.keys(created), `${file} must create exactly the function ${name}`).toEqual([name]);
      files[name] = created[name].replace(`FUNCTION ${SCRATCH}.`, "FUNCTION public.");
      await query(`DROP FUNCTION ${SCRATCH}.${name}`);
    }
  } finally {
    await query("SET search_path = public");
    await query(`DROP SCHEMA ${SCRATCH} CASCADE`);
  }
  return { live, files };
}

function copyMigrations(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "taskboard-sqlfn-"));
  fs.cpSync(defaultMigrationsDir(), dir, { recursive: true });
  return dir;
}

describe("SQL functions", () => {
  it(
    "the migrated database defines exactly the functions of prisma/sql/functions, as written there",
    async () => {
      const db = await freshDatabase();
      try {
        await applyMigrations(db.session);
        const { live, files } = await functionDefinitions(db.query);
        expect(Object.keys(files).length).toBeGreaterThan(0);
        // A difference here: either the file is the intended definition and a migration is missing
        // (`npm run db:function -- <name>`), or a migration redefined the function by hand.
        expect(live).toEqual(files);
      } finally {
        await db.close();
      }
    },
    TIMEOUT,
  );

  // Guards against a comparison that passes because it compares nothing: a later migration that
  // redefines task_board_extras_refresh without one field of a question's JSON (the kind of change
  // a merge of two redefinitions made silently), and one that adds a function with no file.
  it(
    "fails for a migration that drops a field from a function, and for a function with no file",
    async () => {
      const source = fs.readFileSync(path.join(functionsDir, "task_board_extras_refresh.sql"), "utf8");
      const dropped = source.replace(/'execution_id', q\."execution_id",\s*/, "");
      expect(dropped).not.toBe(source);
      const dir = copyMigrations();
      fs.mkdirSync(path.join(dir, "29990101000000_merge_drops_a_field"));
      fs.writeFileSync(path.join(dir, "29990101000000_merge_drops_a_field", "migration.sql"), dropped);
      fs.mkdirSync(path.join(dir, "29990101000001_function_without_file"));
      fs.writeFileSync(
        path.join(dir, "29990101000001_function_without_file", "migration.sql"),
        "CREATE FUNCTION sqlfn_probe() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$;",
      );
      const db = await freshDatabase();
      try {
        await applyMigrations(db.session, dir);
        const { live, files } = await functionDefinitions(db.query);
        expect(live).not.toEqual(files);
        expect(files.task_board_extras_refresh).toContain(`'execution_id', q."execution_id"`);
        expect(live.task_board_extras_refresh).not.toContain(`'execution_id'`);
        expect(live.sqlfn_probe).toBeDefined();
        expect(files.sqlfn_probe).toBeUndefined();
        // Everything else still matches: the check names the function that changed, nothing more.
        const differing = Object.keys({ ...live, ...files }).filter((name) => live[name] !== files[name]);
        expect(differing.sort()).toEqual(["sqlfn_probe", "task_board_extras_refresh"]);
      } finally {
        await db.close();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
    TIMEOUT,
  );
});
