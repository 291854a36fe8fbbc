// The administrator the Playwright server is started with (scripts/e2e-server.mjs) and the browser
// tests sign in as (tests/e2e/helpers.ts): one place for both.
export const E2E_ADMIN = { username: "admin", password: "admin-password-e2e" };
// The webhook secret of the Playwright server, so browser tests can deliver signed GitHub webhooks.
export const E2E_GITHUB_WEBHOOK_SECRET = "e2e-github-webhook-secret";
