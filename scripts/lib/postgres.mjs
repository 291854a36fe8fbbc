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

/** Creates a fresh, uniquely named database and returns its URL and a function that drops it. */
export async function createScratchDatabase(prefix = "taskboard_test") {
  const adminUrl = postgresAdminUrl();
  const name = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
