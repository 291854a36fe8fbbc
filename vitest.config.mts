import path from "node:path";
import { defineConfig } from "vitest/config";

// Two projects (docs/testing.md). "unit": files beside their code and tests of the repository as a
// whole; they never wait for a build or a server. "api": the service over HTTP, against the
// production server started by tests/setup/global-server.ts. Both run on the database named by
// TEST_DATABASE (pglite by default; scripts/test.mjs runs the suite once per database).
const database = process.env.TEST_DATABASE === "postgresql" ? "postgres" : "pglite";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    pool: "forks",
    // TEST_WORKERS: for measuring what fits this machine (docs/testing.md); 2 is what held without flakes.
    maxWorkers: Number(process.env.TEST_WORKERS) || 2,
    // Generous: several tests start their own servers (restarts, crashes) on a 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "components/**/*.test.ts", "tests/unit/**/*.test.ts"],
          globalSetup: ["tests/setup/database-setup.ts"],
        },
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
