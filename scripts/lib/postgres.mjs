import pg from "pg";

// Where tests and benchmarks find PostgreSQL: TEST_DATABASE_URL, else the local server.
export function postgresAdminUrl() {
  return process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
}

export async function postgresReachable(url = postgresAdminUrl()) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Creates a fresh, uniquely named database and returns its URL and a function that drops it.
 * `migrated`: a copy of the test run's migrated template (TASKBOARD_POSTGRES_TEMPLATE, made by
 * tests/setup/database-templates.ts) where there is one; otherwise empty, and the server migrates it.
 * @param {string} [prefix]
 * @param {{ migrated?: boolean }} [options]
 */
export async function createScratchDatabase(prefix = "taskboard_test", { migrated = false } = {}) {
  const adminUrl = postgresAdminUrl();
  const name = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const template = migrated ? process.env.TASKBOARD_POSTGRES_TEMPLATE : undefined;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      // A pool that was just ended may still be closing its connections; FORCE would terminate them
      // and their clients, no longer listening for errors, crash the test process (57P01). Wait for
      // them to go first (2 s at most), and force only what is left.
      for (let tries = 0; tries < 40; tries++) {
        const { rows } = await client.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1`, [name]);
        if (rows[0].n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
