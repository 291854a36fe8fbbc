import { expect, test } from "@playwright/test";
import { Api, screenshot, signIn } from "./helpers";

// Settings → Members: an owner removes a member after confirming, by keyboard; removing the last
// owner is refused and the refusal is shown in words.

test("an owner removes a member by keyboard; the last owner cannot be removed", async ({ page, request }) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  const username = `member_${Date.now()}`;
  await api.call("POST", "/api/users", { username, password: "member-password-1" }, 201);
  await api.call("POST", `/api/workspaces/${ws.id}/members`, { username }, 201);

  await signIn(page, `/w/${ws.id}/settings`);
  const members = page.getByRole("region", { name: "Members" });
  await expect(members.getByText(username, { exact: true })).toBeVisible();

  // Escape cancels: the member stays.
  await members.getByRole("button", { name: `Remove ${username}` }).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: `Remove ${username}?` });
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(members.getByText(username, { exact: true })).toBeVisible();

  // Confirmed with the keyboard: gone from the page and from the workspace.
  await members.getByRole("button", { name: `Remove ${username}` }).focus();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: `Remove ${username}` }).focus();
  await page.keyboard.press("Enter");
  await expect(dialog).toHaveCount(0);
  await expect(members.getByText(username, { exact: true })).toHaveCount(0);
  const left = await api.call<{ username: string }[]>("GET", `/api/workspaces/${ws.id}/members`);
  expect(left.map((member) => member.username)).toEqual(["admin"]);
  await page.reload();
  await expect(members.getByText("admin", { exact: true })).toBeVisible();
  await expect(members.getByText(username, { exact: true })).toHaveCount(0);

  // The only owner removing themselves: refused, said in words, still a member.
  await members.getByRole("button", { name: "Remove admin" }).click();
  const self = page.getByRole("dialog", { name: "Remove admin?" });
  await self.getByRole("button", { name: "Remove admin" }).click();
  await expect(self.getByRole("alert")).toContainText("The last owner cannot be removed");
  await screenshot(page, "settings-last-owner");
  await self.getByRole("button", { name: "Cancel" }).click();
  await expect(members.getByText("admin", { exact: true })).toBeVisible();
});
