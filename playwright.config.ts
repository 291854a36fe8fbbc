import { defineConfig, devices } from "@playwright/test";
import { DISABLED_FEATURES } from "./tests/e2e/chromium-switches";

// The browser comes from scripts/lib/find-chromium.mjs via CHROMIUM_PATH (Debian's chromium here;
// Playwright never downloads one). The server is the production build on a fresh embedded database.
const port = Number(process.env.E2E_PORT || 3210);
const chrome = { ...devices["Desktop Chrome"], channel: undefined };

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "tests/artifacts/playwright",
  fullyParallel: false,
  // Two spec files at a time, 25 % faster than one. The failures two brought (a quick run seen
  // "running" for good, slow accessibility scans, a real runner taking others' runs) were mended in
  // the product and the specs (docs/testing.md). E2E_WORKERS=1 runs one at a time.
  workers: Number(process.env.E2E_WORKERS) || 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: "tests/artifacts/playwright-results.json" }]],
  use: {
    baseURL: `http://localhost:${port}`,
    screenshot: "only-on-failure",
    // A failed test keeps its trace: every action's timing, the console, the network and the page's
    // DOM at each step. Not the screencast: its frames cost 10-20 % of the browser tests' CPU
    // (docs/testing.md, "The browser tests' traces"), and the failure's own screenshot is kept above.
    trace: { mode: "retain-on-failure", screenshots: false },
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || undefined,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        `--disable-features=${DISABLED_FEATURES.join(",")}`,
      ],
    },
  },
  // One project: any two specs may run side by side. runners.spec.ts's real runner is a dedicated
  // one that only its own workspace chose, so it takes no other spec's runs (docs/testing.md).
  projects: [{ name: "chromium", use: chrome }],
  webServer: {
    command: `node scripts/e2e-server.mjs`,
    url: `http://localhost:${port}/api/health`,
    reuseExistingServer: false,
    // SIGTERM, not Playwright's default SIGKILL of the group: scripts/e2e-server.mjs removes the
    // server's data directory (about 45 MB) once the server has exited, which a SIGKILL never let it do.
    gracefulShutdown: { signal: "SIGTERM", timeout: 15_000 },
    timeout: 120_000,
    env: { E2E_PORT: String(port) },
  },
});
