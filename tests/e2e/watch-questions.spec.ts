import { expect, test } from "@playwright/test";
import { Api, screens, signIn } from "./helpers";

// Watching a workspace's questions (docs/notifications.md, "Watching a workspace"): a person turns
// it on in Settings, and the next question on a task assigned to someone else reaches their inbox.

test("a person watches a workspace in Settings and hears of a question on someone else's task", async ({ page, request }) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace(`Watched ${Date.now()}`);
  const username = `watcher_${Date.now()}`;
  const password = "watcher-password-1234";
  await api.call("POST", "/api/users", { username, password }, 201);
  await api.call("POST", `/api/workspaces/${ws.id}/members`, { username, role: "member" }, 201);
  await signIn(page, `/w/${ws.id}/settings`, { username, password });

  const section = page.getByRole("region", { name: "Questions in this workspace" });
  const toggle = section.getByRole("checkbox", { name: "Tell me of every question asked in this workspace" });
  await expect(toggle).toBeEnabled();
  await expect(toggle).not.toBeChecked();
  await toggle.check();
  await expect(toggle).toBeChecked();
  await page.reload();
  await expect(toggle).toBeEnabled();
  await expect(toggle).toBeChecked();
  await screens(page, "settings-watch-questions", section);

  // The admin's own task: without the watch, only its assignee would hear of it.
  const admin = await api.call<{ id: string }>("GET", "/api/auth/me");
  const task = await api.task(ws.id, { title: "Someone else's task", status: "todo", assignees: [{ kind: "user", id: admin.id }] });
  await api.call(
    "POST",
    `/api/workspaces/${ws.id}/questions`,
    { task_id: task.id, content: "Ship on Friday?", options: ["Yes", "No"] },
    201,
  );
  const bell = page.locator("header").getByRole("button", { name: /^Notifications, \d+ unread$/ });
  await expect(bell).toHaveAccessibleName("Notifications, 1 unread", { timeout: 15_000 });
  await bell.click();
  const inbox = page.getByRole("dialog", { name: "Notifications" });
  await expect(inbox.getByText("Ship on Friday?")).toBeVisible();
});
