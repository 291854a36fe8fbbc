import fs from "node:fs";
import path from "node:path";
import { defineConfig } from "vitest/config";
import { TEST_NODE_ARGS } from "./scripts/lib/test-node-args.mjs";

// Three projects (docs/testing.md). "unit" and "unit-db": files beside their code and tests of the
// repository as a whole; they never wait for a build or a server. "api": the service over HTTP,
// against the production server started by tests/setup/global-server.ts. All run on the database
// named by TEST_DATABASE (pglite by default; scripts/test.mjs runs the suite once per database,
// "unit" only on the first).
const database = process.env.TEST_DATABASE === "postgresql" ? "postgres" : "pglite";

// Unit tests that open a database of the kind under test (through tests/helpers/db.ts or
// fresh-database.ts) are the project "unit-db", which the PostgreSQL pass runs again; the others
// do not depend on the database and run once (scripts/test.mjs).
const UNIT = ["lib", "components", "tests/unit"];
const unitDb = UNIT.flatMap((dir) =>
  fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((file) => path.join(dir, file))
    .filter((file) => file.endsWith(".test.ts") && /helpers\/(db|fresh-database)"/.test(fs.readFileSync(file, "utf8"))),
);

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    pool: "forks",
    // The workers run PGlite and undici's HTTP parser, both WebAssembly: baseline compiler only.
    execArgv: TEST_NODE_ARGS,
    // Three on 2 cores: with two, a pass left the CPU idle while files waited on their servers
    // (docs/testing.md, measured). TEST_WORKERS sets another count.
    maxWorkers: Number(process.env.TEST_WORKERS) || 3,
    // A worker runs file after file in one process, its modules loaded once: a process and its
    // imports per file cost about 0.4 s of CPU a unit file and 0.85 s an API file (docs/testing.md,
    // measured). So a file restores the environment it changes (the setup file below checks), and
    // one that needs a module afresh (a probe kept per process) says so with `vi.resetModules()`.
    isolate: false,
    setupFiles: ["tests/setup/environment-kept.ts"],
    // Generous: several tests start their own servers (restarts, crashes) on a 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: UNIT.map((dir) => `${dir}/**/*.test.ts`),
          exclude: unitDb,
          globalSetup: ["tests/setup/database-setup.ts"],
        },
      },
      {
        extends: true,
        test: { name: "unit-db", include: unitDb, globalSetup: ["tests/setup/database-setup.ts"] },
      },
      {
        extends: true,
        test: {
          name: "api",
          include: ["tests/api/**/*.test.ts", `tests/${database}/**/*.test.ts`],
          globalSetup: ["tests/setup/database-setup.ts", "tests/setup/global-server.ts"],
        },
      },
    ],
  },
});
