import { expect, test, type APIRequestContext } from "@playwright/test";
import { startServer } from "../../scripts/lib/server.mjs";
import { startOidcProvider, type TestOidcProvider } from "../fixtures/oidc-provider";
import { ADMIN } from "./helpers";

// Single sign-on in the browser against a real OpenID provider (oidc-provider) started here. This
// spec runs its own app server with the OIDC_* settings, so the shared server's login page (and
// every other spec's "Sign in" button) stays as it is.

let provider: TestOidcProvider;
let app: Awaited<ReturnType<typeof startServer>>;
let ssoOnly: Awaited<ReturnType<typeof startServer>>;

test.beforeAll(async () => {
  // Two servers start here (the shared one is already up); slow on a loaded machine.
  test.setTimeout(240_000);
  provider = await startOidcProvider({
    ada: { email: "ada@corp.example", email_verified: true, name: "Ada Lovelace", preferred_username: "ada" },
    eve: { email: "eve@evil.example", email_verified: true, preferred_username: "eve" },
  });
  const sso = {
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: provider.clientId,
    OIDC_CLIENT_SECRET: provider.clientSecret,
    OIDC_NAME: "Test IdP",
    OIDC_ALLOWED_DOMAINS: "corp.example",
  };
  [app, ssoOnly] = await Promise.all([
    startServer({ label: "e2e-sso", env: { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, ...sso } }),
    startServer({ label: "e2e-sso-only", env: { ...sso, PASSWORD_LOGIN: "false" } }),
  ]);
  provider.register(`${app.url}/api/auth/callback/oidc`, `${ssoOnly.url}/api/auth/callback/oidc`);
});

test.afterAll(async () => {
  await Promise.all([app?.stop(), ssoOnly?.stop()]);
  await provider?.stop();
});

test("signs in with the provider (authorization code + PKCE) and lands on the board", async ({ page, request }) => {
  await page.goto(`${app.url}/`);
  await expect(page).toHaveURL(/\/login/);
  const ssoButton = page.getByRole("button", { name: "Sign in with Test IdP" });
  await expect(ssoButton).toBeVisible();
  await expect(page.getByLabel("Password")).toBeVisible();
  await page.screenshot({ path: "tests/artifacts/screens/login-sso.png" });

  await ssoButton.click();
  // The provider's own page, on its own origin.
  await page.waitForURL((url) => url.origin === provider.issuer);
  const authorize = new URL(page.url());
  expect(authorize.pathname).toMatch(/^\/interaction\//);
  await page.getByLabel("Account").fill("ada");
  await page.getByRole("button", { name: "Continue" }).click();

  await expect(page.getByRole("heading", { name: "Your workspaces" })).toBeVisible();
  expect(new URL(page.url()).origin).toBe(app.url);
  await expect(page.getByRole("banner").getByText("ada", { exact: true })).toBeVisible();

  // An administrator adds the new user to a workspace; its board opens with the SSO session.
  const workspace = await asAdmin(request, "POST", "/api/workspaces", { name: `SSO ${Date.now()}` });
  await asAdmin(request, "POST", `/api/workspaces/${workspace.id}/members`, { username: "ada" });
  await page.reload();
  await page.getByRole("link", { name: new RegExp(workspace.name) }).click();
  // The board's data comes from the API with the SSO session's cookie.
  await expect(page.getByRole("region", { name: "Backlog", exact: true }).getByText(/No tasks/)).toBeVisible();
  await page.screenshot({ path: "tests/artifacts/screens/board-after-sso.png" });
});

test("refuses an identity whose email domain is not allowed, in words", async ({ page }) => {
  await page.goto(`${app.url}/login`);
  await page.getByRole("button", { name: "Sign in with Test IdP" }).click();
  await page.waitForURL((url) => url.origin === provider.issuer);
  await page.getByLabel("Account").fill("eve");
  await page.getByRole("button", { name: "Continue" }).click();

  await expect(page).toHaveURL(/\/login\?error=SsoNotAllowed/);
  await expect(page.getByRole("alert").filter({ hasText: "Your Test IdP account is not allowed on this board" })).toBeVisible();
  await page.screenshot({ path: "tests/artifacts/screens/login-sso-refused.png" });
  // Still signed out.
  await page.goto(`${app.url}/`);
  await expect(page).toHaveURL(/\/login/);
});

test("with password login off, offers only the provider; its first user becomes the administrator", async ({ page }) => {
  await page.goto(`${ssoOnly.url}/`);
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByText("the first person to sign in with Test IdP becomes its administrator")).toBeVisible();
  await expect(page.getByLabel("Password")).toHaveCount(0);
  await expect(page.getByLabel("Username")).toHaveCount(0);
  await page.screenshot({ path: "tests/artifacts/screens/login-sso-only.png" });

  await page.getByRole("button", { name: "Sign in with Test IdP" }).click();
  await page.waitForURL((url) => url.origin === provider.issuer);
  await page.getByLabel("Account").fill("ada");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { name: "Your workspaces" })).toBeVisible();
  const me = await page.request.get(`${ssoOnly.url}/api/auth/me`);
  expect(await me.json()).toMatchObject({ username: "ada", is_admin: true });
});

async function asAdmin(request: APIRequestContext, method: string, path: string, data: unknown) {
  const login = await request.post(`${app.url}/api/auth/login`, { data: ADMIN });
  const { access_token: token } = await login.json();
  const response = await request.fetch(`${app.url}${path}`, { method, data, headers: { authorization: `Bearer ${token}` } });
  expect(response.ok(), `${method} ${path}: ${response.status()}`).toBeTruthy();
  return response.json();
}
