import { expect, test } from "@playwright/test";
import { Api, column, openBoard, screenshot, signIn } from "./helpers";

test("add a blocker from the task dialog, see 'blocked by 1' until the blocker is done, and the move in its activity", async ({
  page,
  request,
}) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  await api.task(ws.id, { title: "Release version 2", status: "todo" });
  const blocker = await api.task(ws.id, { title: "Write the migration guide", status: "in_progress" });
  await api.task(ws.id, { title: "Write the changelog", status: "backlog" });

  await signIn(page, `/w/${ws.id}`);
  await openBoard(page, ws.id);
  const card = column(page, "To do").getByRole("group", { name: "Release version 2" });
  await expect(card.getByTestId("blocked-by-badge")).toHaveCount(0);

  await card.click();
  const dialog = page.getByRole("dialog", { name: /^Task #/ });
  await expect(dialog.getByText("Nothing: this task waits for no other task.")).toBeVisible();
  // The picker by keyboard only: type, arrow down to the second match, Enter.
  const picker = dialog.getByRole("combobox", { name: "Add a blocker" });
  await picker.fill("write the");
  const options = dialog.getByRole("listbox", { name: "Matching tasks" }).getByRole("option");
  await expect(options).toHaveCount(2);
  await expect(options.nth(0)).toHaveAttribute("aria-selected", "true");
  await picker.press("ArrowDown");
  await expect(options.nth(1)).toContainText("Write the migration guide");
  await expect(options.nth(1)).toHaveAttribute("aria-selected", "true");
  await picker.press("Enter");

  const blockers = dialog.getByRole("list", { name: "Blockers" });
  await expect(blockers.getByRole("listitem")).toHaveCount(1);
  await expect(blockers).toContainText("Write the migration guide");
  await expect(blockers).toContainText("In progress");
  await expect(dialog.getByRole("list", { name: "Task timeline, newest last" })).toContainText(
    "Now blocked by #2 “Write the migration guide”",
  );
  await dialog.getByRole("heading", { name: "Dependencies" }).scrollIntoViewIfNeeded();
  await screenshot(page, "dependencies-dialog");
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);

  await expect(card.getByTestId("blocked-by-badge")).toHaveText("blocked by 1");
  await screenshot(page, "dependencies-card");

  // Another client finishes the blocker: the live board drops the badge.
  await api.call("POST", `/api/workspaces/${ws.id}/tasks/${blocker.id}/move`, { column: "done" });
  await expect(column(page, "Done").getByRole("group", { name: "Write the migration guide" })).toBeVisible();
  await expect(card.getByTestId("blocked-by-badge")).toHaveCount(0);

  // The blocker's activity shows the move, who made it, and the dependency.
  await column(page, "Done").getByRole("group", { name: "Write the migration guide" }).click();
  const activity = dialog.getByRole("list", { name: "Task timeline, newest last" });
  await expect(activity.getByRole("listitem").last()).toContainText("Moved to Done");
  await expect(activity.getByRole("listitem").last()).toContainText("admin");
  await expect(activity).toContainText("Now blocks #1 “Release version 2”");
  await expect(dialog.getByRole("list", { name: "Dependants" })).toContainText("Release version 2");
  await activity.scrollIntoViewIfNeeded();
  await screenshot(page, "dependencies-activity");
});

test("an owner turns on starting unblocked tasks in Settings", async ({ page, request }) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  await signIn(page, `/w/${ws.id}/settings`);
  const setting = page.getByRole("region", { name: "Dependencies" }).getByRole("checkbox", { name: /Start the default agent/ });
  await expect(setting).not.toBeChecked();
  await setting.click();
  await expect(setting).toBeChecked();
  await expect
    .poll(async () => (await api.call<{ auto_start_unblocked: boolean }>("GET", `/api/workspaces/${ws.id}`)).auto_start_unblocked)
    .toBe(true);
  await setting.scrollIntoViewIfNeeded();
  await screenshot(page, "dependencies-setting");
});
