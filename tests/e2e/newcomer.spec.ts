import { expect, test, type Page } from "@playwright/test";
import { ADMIN, screenshot } from "./helpers";

// What a newcomer meets first: the sign-in page, the workspace list, creating a workspace (which
// opens its board), and pages that load without a failed request (the browser's /favicon.ico).

/** Every response of 400 or more and every console error the page sees, as "STATUS URL" lines. */
function failures(page: Page): string[] {
  const seen: string[] = [];
  page.on("response", (response) => {
    if (response.status() >= 400) seen.push(`${response.status()} ${response.url()}`);
  });
  page.on("console", (message) => {
    if (message.type() === "error") seen.push(`console: ${message.text()}`);
  });
  return seen;
}

test("the icon is served to anyone, signed in or not", async ({ request }) => {
  const icon = await request.get("/favicon.ico", { maxRedirects: 0 });
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/);
  const body = await icon.body();
  // An ICO directory (reserved 0, type 1) holding the 32 and 16 px images.
  expect([body.readUInt16LE(0), body.readUInt16LE(2), body.readUInt16LE(4)]).toEqual([0, 1, 2]);
  expect((await request.get("/icon.svg", { maxRedirects: 0 })).status()).toBe(200);
});

test("creating a workspace opens its board, and no page logs a failed request", async ({ page }) => {
  const failed = failures(page);
  await page.goto("/login");
  await expect(page.locator('link[rel="icon"]').first()).toHaveAttribute("href", /icon/);
  await page.getByLabel("Username").fill(ADMIN.username);
  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Your workspaces" })).toBeVisible();

  const name = `First steps ${Date.now()}`;
  await page.getByLabel("New workspace name").fill(name);
  await page.getByRole("button", { name: "Create workspace" }).click();
  await expect(page).toHaveURL(/\/w\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1, name: `${name} board` })).toBeAttached();
  await expect(page.getByRole("banner").getByTitle(name)).toHaveText(name);
  await expect(page.getByTitle(/^Live:/)).toBeVisible();
  await expect(page.getByLabel("Add a task to Backlog")).toBeVisible();
  await screenshot(page, "new-workspace-board");

  // Back on the list it is there once; the projects and schedules pages load cleanly too. (Settings
  // is left out: it reads "no repository yet" as the API's 404 and "no GitHub installation yet" as 409.)
  const board = new URL(page.url()).pathname;
  await page.goto("/");
  await expect(page.getByRole("link", { name: new RegExp(name) })).toHaveCount(1);
  for (const path of [`${board}/projects`, `${board}/schedules`]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  }
  expect(failed).toEqual([]);
});
