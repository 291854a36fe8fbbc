import crypto from "node:crypto";
import fs from "node:fs";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { ADMIN, Api, screens } from "./helpers";

// An MCP client signing a person in over OAuth (docs/mcp.md, "OAuth"): the client part (registration,
// the authorization URL with PKCE, the code exchange) through the request context, the person's part
// in the browser: the login page, the consent page, Allow or Deny. The client's callback is a
// loopback address the test answers itself, as a CLI's local listener would.

const CALLBACK = "http://127.0.0.1:9/callback";
const SHOTS = "/tmp/shots/oauth";

async function startAuthorization(request: APIRequestContext, clientName: string) {
  const registered = await request.post("/oauth/register", {
    data: {
      client_name: clientName,
      redirect_uris: [CALLBACK],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
    },
  });
  expect(registered.status()).toBe(201);
  const { client_id } = (await registered.json()) as { client_id: string };
  const verifier = crypto.randomBytes(32).toString("base64url");
  const challenge = crypto.createHash("sha256").update(verifier).digest("base64url");
  const query = new URLSearchParams({
    response_type: "code",
    client_id,
    redirect_uri: CALLBACK,
    scope: "mcp",
    state: "e2e",
    code_challenge: challenge,
    code_challenge_method: "S256",
  });
  return { clientId: client_id, verifier, url: `/oauth/authorize?${query}` };
}

/** Answers the client's callback in the browser and hands its URL to the test. */
async function callbackOf(page: Page): Promise<() => Promise<URL>> {
  let reached: (url: URL) => void;
  const promise = new Promise<URL>((resolve) => (reached = resolve));
  await page.route("http://127.0.0.1:9/**", async (route) => {
    reached(new URL(route.request().url()));
    await route.fulfill({ contentType: "text/html", body: "<h1>You can close this window.</h1>" });
  });
  return () => promise;
}

test("a signed-out person signs in, sees who asks, allows, and the client's token works on /api/mcp", async ({ page, request }) => {
  const flow = await startAuthorization(request, "Claude Code (taskboard)");
  const callback = await callbackOf(page);
  await page.goto(flow.url);
  await page.waitForURL((url) => url.pathname === "/login");
  await page.getByLabel("Username").fill(ADMIN.username);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  const heading = page.getByRole("heading", { name: `Claude Code (taskboard) wants to use the board as ${ADMIN.username}` });
  await expect(heading).toBeVisible();
  await expect(page.getByText("127.0.0.1:9")).toBeVisible();
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ]) {
    await page.setViewportSize({ width, height });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.screenshot({ path: `${SHOTS}/consent-${width}x${height}.png` });
  }
  await page.getByRole("button", { name: "Allow" }).click();
  const back = await callback();
  expect(back.searchParams.get("state")).toBe("e2e");
  const code = back.searchParams.get("code");
  expect(code).toBeTruthy();

  const token = await request.post("/oauth/token", {
    form: { grant_type: "authorization_code", code: code!, code_verifier: flow.verifier, redirect_uri: CALLBACK, client_id: flow.clientId },
  });
  expect(token.status()).toBe(200);
  const { access_token } = (await token.json()) as { access_token: string };
  const tools = await request.post("/api/mcp", {
    headers: { authorization: `Bearer ${access_token}`, accept: "application/json, text/event-stream" },
    data: { jsonrpc: "2.0", id: 1, method: "tools/list" },
  });
  expect(tools.status()).toBe(200);
  expect(await tools.text()).toContain('"name":"list_tasks"');

  // Settings → Connected apps lists it, used just now; Disconnect asks, then ends its token.
  const ws = await (await Api.asAdmin(request)).workspace();
  await page.goto(`/w/${ws.id}/settings`);
  const section = page.getByRole("region", { name: "Connected apps" });
  const app = section.getByRole("listitem", { name: "Claude Code (taskboard)" }).first();
  await expect(app).toContainText("Returns to 127.0.0.1:9");
  await expect(app).toContainText("last used");
  await screens(page, "settings-connected-apps", section);
  await app.getByRole("button", { name: "Disconnect Claude Code (taskboard)" }).click();
  const confirm = app.getByRole("group", { name: "Confirm: Disconnect Claude Code (taskboard)" });
  await expect(confirm).toContainText("It stops working at once");
  await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
  await confirm.getByRole("button", { name: "Disconnect Claude Code (taskboard)" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Disconnected Claude Code (taskboard)." })).toBeVisible();
  await expect(section.getByRole("listitem", { name: "Claude Code (taskboard)" })).toHaveCount(0);
  const after = await request.post("/api/mcp", {
    headers: { authorization: `Bearer ${access_token}`, accept: "application/json, text/event-stream" },
    data: { jsonrpc: "2.0", id: 1, method: "tools/list" },
  });
  expect(after.status()).toBe(401);
});

test("Deny sends the client access_denied and no code", async ({ page, request }) => {
  const flow = await startAuthorization(request, "Some other client");
  const callback = await callbackOf(page);
  await page.goto(`/login?callbackUrl=${encodeURIComponent(flow.url)}`);
  await page.getByLabel("Username").fill(ADMIN.username);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: /^Some other client wants to use the board as/ })).toBeVisible();
  await page.getByRole("button", { name: "Deny" }).click();
  const back = await callback();
  expect(back.searchParams.get("error")).toBe("access_denied");
  expect(back.searchParams.get("code")).toBeNull();
});
