import { expect, test } from "@playwright/test";
import { ADMIN } from "./helpers";

test("sign in through the page, create a workspace, sign out", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/login/);
  await page.screenshot({ path: "tests/artifacts/screens/login.png" });

  await page.getByLabel("Username").fill(ADMIN.username);
  await page.getByLabel("Password").fill("wrong-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Incorrect username or password" })).toBeVisible();

  await page.getByLabel("Password").fill(ADMIN.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Your workspaces" })).toBeVisible();

  const name = `Smoke ${Date.now()}`;
  await page.getByLabel("New workspace name").fill(name);
  await page.getByRole("button", { name: "Create workspace" }).click();
  // The new workspace opens on its board.
  await expect(page).toHaveURL(/\/w\/[0-9a-f-]+$/);
  await expect(page.getByRole("heading", { level: 1, name: `${name} board` })).toBeAttached();

  // It was really saved: listed on the workspaces page after a fresh load.
  await page.goto("/");
  await expect(page.getByRole("link", { name: new RegExp(name) })).toBeVisible();
  await page.screenshot({ path: "tests/artifacts/screens/workspaces.png" });

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login/);
});
