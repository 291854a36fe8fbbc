import { expect, test } from "@playwright/test";
import { Api, screenshot, signIn } from "./helpers";

// Every section's loading, error and empty states come from one component (components/ui/section-state.tsx):
// loading is announced by name, a failure is said in words with "Try again", and an empty list says so.
// The network is cut for the members list only; the server itself is real.

test("a section announces loading, says a failure in words and loads again on Try again", async ({ page, request }) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  const membersUrl = `**/api/workspaces/${ws.id}/members`;

  // Held: the section says it is loading, by name.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(membersUrl, async (route) => {
    await held;
    await route.continue();
  });
  await signIn(page, `/w/${ws.id}/settings`);
  const members = page.getByRole("region", { name: "Members" });
  await expect(members.getByRole("status", { name: "Loading the members" })).toBeVisible();
  release();
  await expect(members.getByText("admin", { exact: true })).toBeVisible();
  await page.unrouteAll();

  // Cut (every retry too): the failure in words, with a way to try again.
  let cut = true;
  await page.route(membersUrl, (route) => (cut ? route.abort("failed") : route.continue()));
  await page.reload();
  await expect(members.getByRole("alert")).toContainText("Could not load the members", { timeout: 20_000 });
  await members.scrollIntoViewIfNeeded();
  await screenshot(page, "section-state-error");
  cut = false;
  await members.getByRole("button", { name: "Try again" }).click();
  await expect(members.getByText("admin", { exact: true })).toBeVisible();
  await expect(members.getByRole("alert")).toHaveCount(0);

  // Empty (a new workspace has no webhooks): said in words.
  await expect(page.getByRole("region", { name: "Webhooks" }).getByText("No webhooks yet.")).toBeVisible();
});

test("the task dialog shows its form, dependencies, questions, run history and activity", async ({ page, request }) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  const task = await api.task(ws.id, { title: "Sections", status: "backlog" });
  await signIn(page, `/w/${ws.id}?task=${task.id}`);
  const dialog = page.getByRole("dialog", { name: `Task #${task.number}` });
  await expect(dialog.getByRole("form", { name: "Edit task" })).toBeVisible();
  await expect(dialog.getByRole("region", { name: "Questions" })).toContainText("No questions on this task.");
  await expect(dialog.getByRole("region", { name: "Run history" })).toContainText("No runs yet.");
  await expect(dialog.getByRole("region", { name: "Activity" })).toBeVisible();
  await dialog.getByRole("heading", { name: "Activity" }).scrollIntoViewIfNeeded();
  await screenshot(page, "task-dialog-sections");
});
