import { expect, test, type Page } from "@playwright/test";
import { Api, screenshot, signIn } from "./helpers";

// Issue #38's inbox (docs/notifications.md): the bell's unread count (also in the tab's title), a
// question answered from the inbox with one tap on its option, Settings → Notifications, and the
// theme switch; at a phone's 390×844 and a desktop's 1440×900.

const SIZES = [
  ["phone", { width: 390, height: 844 }],
  ["desktop", { width: 1440, height: 900 }],
] as const;

/** A person of their own (their inbox holds only this spec's notifications), an owner of `workspaceId`. */
async function person(api: Api, workspaceId: string) {
  const username = `inbox_${Date.now()}`;
  const password = "inbox-password-1234";
  const user = await api.call<{ id: string }>("POST", "/api/users", { username, password }, 201);
  await api.call("POST", `/api/workspaces/${workspaceId}/members`, { username, role: "owner" }, 201);
  return { id: user.id, username, password };
}

async function signInAs(page: Page, who: { username: string; password: string }, next: string) {
  await page.goto(`/login?callbackUrl=${encodeURIComponent(next)}`);
  await page.getByLabel("Username").fill(who.username);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
}

function bell(page: Page) {
  return page.locator("header").getByRole("button", { name: /^Notifications, \d+ unread$/ });
}

test("the bell counts a new question, and the inbox answers it with one tap", async ({ page, request }) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  const me = await person(api, ws.id);
  await signInAs(page, me, `/w/${ws.id}`);
  for (const [label, size] of SIZES) {
    await page.setViewportSize(size);
    const title = `Pick a database (${label})`;
    // No assignee: the workspace's owners hear of its question, the person among them (docs/notifications.md).
    const task = await api.task(ws.id, { title, status: "todo" });
    const question = await api.call<{ id: string }>(
      "POST",
      `/api/workspaces/${ws.id}/questions`,
      { task_id: task.id, content: "Which database should the cache use?", options: ["PostgreSQL", "SQLite"] },
      201,
    );
    await page.goto(`/w/${ws.id}`);
    await expect(bell(page)).toHaveAccessibleName(`Notifications, 1 unread`);
    await expect(bell(page)).toBeInViewport();
    await expect(page).toHaveTitle(new RegExp(`^\\(1\\) `));

    await bell(page).click();
    const inbox = page.getByRole("dialog", { name: "Notifications" });
    const item = inbox.getByRole("listitem", { name: `Question on "${title}"` });
    await expect(item).toBeVisible();
    await expect(item).toContainText("Which database should the cache use?");
    await screenshot(page, `notifications-inbox-${label}`);
    await item.getByRole("button", { name: "SQLite" }).click();
    await expect(item).toContainText("Answered");
    await expect(bell(page)).toHaveAccessibleName(`Notifications, 0 unread`);
    const answered = await api.call<{ id: string; answer: string; answered_via: string }[]>(
      "GET",
      `/api/workspaces/${ws.id}/questions?status=answered`,
    );
    expect(answered.find((q) => q.id === question.id)).toMatchObject({ answer: "SQLite", answered_via: "board" });
    await screenshot(page, `notifications-answered-${label}`);
    await inbox.getByRole("button", { name: "Close" }).click();
  }
});

test("Settings → Notifications saves preferences and lists deliveries", async ({ page, request }) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  const saved = await api.call<Record<string, unknown>>("GET", "/api/me/notification-settings");
  await signIn(page, `/w/${ws.id}/settings`);
  try {
    for (const [label, size] of SIZES) {
      await page.setViewportSize(size);
      await page.goto(`/w/${ws.id}/settings`);
      const section = page.getByRole("region", { name: "Notifications" });
      const mentionEmail = section.getByRole("checkbox", { name: "Mentions in comments: Email" });
      await expect(mentionEmail).toBeChecked();
      await mentionEmail.uncheck();
      await section.getByRole("button", { name: "Save notification settings" }).click();
      await expect(section.getByRole("button", { name: "Saved" })).toBeVisible();
      const now = await api.call<{ kinds: { mention: { email: boolean } } }>("GET", "/api/me/notification-settings");
      expect(now.kinds.mention.email).toBe(false);
      await expect(section.getByRole("list", { name: "Deliveries" })).toBeVisible();
      await section.scrollIntoViewIfNeeded();
      await screenshot(page, `notifications-settings-${label}`);
      await api.call("PUT", "/api/me/notification-settings", { ...saved, configured_channels: undefined });
    }
  } finally {
    await api.call("PUT", "/api/me/notification-settings", { ...saved, configured_channels: undefined });
  }
});

test("the theme switch chooses dark, keeps it across a reload with no light flash, and goes back to the system's", async ({
  page,
  request,
}) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  await page.emulateMedia({ colorScheme: "light" });
  await signIn(page, `/w/${ws.id}`);
  for (const [label, size] of SIZES) {
    await page.setViewportSize(size);
    // On a phone the theme switch is in the top bar's menu.
    const openMenu = async () => {
      if (label === "phone") await page.locator("header").getByRole("button", { name: "Menu" }).click();
    };
    await openMenu();
    const theme = page.locator("header").getByRole("combobox", { name: "Theme" });
    await expect(theme).toHaveValue("system");
    await expect(page.locator("html")).not.toHaveClass(/\bdark\b/);
    await theme.selectOption("dark");
    await expect(page.locator("html")).toHaveClass(/\bdark\b/);
    // The class is there before the page's own scripts run: set by the script in <head>.
    await page.reload({ waitUntil: "commit" });
    await page.waitForSelector("body", { state: "attached" });
    expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
    await openMenu();
    await expect(theme).toHaveValue("dark");
    await screenshot(page, `theme-dark-${label}`);
    await theme.selectOption("system");
    await expect(page.locator("html")).not.toHaveClass(/\bdark\b/);
    await page.emulateMedia({ colorScheme: "dark" });
    await expect(page.locator("html")).toHaveClass(/\bdark\b/);
    await page.emulateMedia({ colorScheme: "light" });
  }
});
