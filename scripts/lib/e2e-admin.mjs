import os from "node:os";
import path from "node:path";

// The administrator the Playwright server is started with (scripts/e2e-server.mjs) and the browser
// tests sign in as (tests/e2e/helpers.ts): one place for both.
export const E2E_ADMIN = { username: "admin", password: "admin-password-e2e" };
// The webhook secret of the Playwright server, so browser tests can deliver signed GitHub webhooks.
export const E2E_GITHUB_WEBHOOK_SECRET = "e2e-github-webhook-secret";
// Where browser tests make their git remotes and other scratch files, one directory per Playwright
// server (by its port): scripts/e2e-server.mjs makes it afresh and removes it when it stops, so a
// run leaves nothing behind in the temporary directory.
export const e2eScratchRoot = (port = process.env.E2E_PORT || "3210") => path.join(os.tmpdir(), `taskboard-e2e-scratch-${port}`);
