import path from "node:path";
import { defineConfig } from "vitest/config";

// API tests run against the production server started by tests/setup/global-server.ts, on the
// database named by TEST_DATABASE (pglite by default; scripts/test.mjs runs the suite once per database).
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    // Where tests live is docs/testing.md: a unit test beside its file, tests/unit for the repository as a whole,
    // tests/api over HTTP; tests/postgres and tests/pglite hold what only makes sense on one database.
    include: [
      "lib/**/*.test.ts",
      "components/**/*.test.ts",
      "tests/unit/**/*.test.ts",
      "tests/api/**/*.test.ts",
      process.env.TEST_DATABASE === "postgresql" ? "tests/postgres/**/*.test.ts" : "tests/pglite/**/*.test.ts",
    ],
    globalSetup: ["tests/setup/global-server.ts"],
    pool: "forks",
    maxWorkers: 2,
    // Generous: several tests start their own servers (PGlite creation, restarts) on a 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
