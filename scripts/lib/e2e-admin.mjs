// The administrator the Playwright server is started with (scripts/e2e-server.mjs) and the browser
// tests sign in as (tests/e2e/helpers.ts): one place for both.
export const E2E_ADMIN = { username: "admin", password: "admin-password-e2e" };
