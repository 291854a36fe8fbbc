import path from "node:path";
import { defineConfig } from "vitest/config";

// API tests run against the production server started by tests/setup/global-server.ts, on the
// database named by TEST_DATABASE (pglite by default; scripts/test.mjs runs the suite once per database).
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    // tests/postgres and tests/pglite hold what only makes sense on one database.
    include: [
      "tests/unit/**/*.test.ts",
      "tests/api/**/*.test.ts",
      "lib/**/*.test.ts",
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
