import { expect, test, type Page } from "@playwright/test";
import { Api, screenshot, signIn } from "./helpers";

test("create a schedule on one task with a chosen agent, see its next runs, trigger it, and delete it", async ({ page, request }) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  const task = await api.task(ws.id, { title: "Weekly dependency bump", status: "todo" });
  await api.call("POST", `/api/workspaces/${ws.id}/agents`, { name: "Quick agent", kind: "command", command: "true" }, 201);
  await signIn(page, `/w/${ws.id}/schedules`);
  await expect(page.getByText("No schedules yet")).toBeVisible();
  await page.getByRole("button", { name: "New schedule" }).click();
  const dialog = page.getByRole("dialog", { name: "New schedule" });
  await dialog.getByLabel("Name").fill("Nightly triage");
  await expect(dialog.getByLabel("Slug")).toHaveValue("nightly-triage");
  // The browser really checks the slug (a pattern invalid under the `v` flag would switch it off).
  await dialog.getByLabel("Slug").fill("Nightly Triage!");
  expect(await dialog.getByLabel("Slug").evaluate((input: HTMLInputElement) => input.validity.patternMismatch)).toBe(true);
  await dialog.getByLabel("Slug").fill("nightly-triage");
  expect(await dialog.getByLabel("Slug").evaluate((input: HTMLInputElement) => input.validity.valid)).toBe(true);
  await dialog.getByLabel("Cron").fill("30 2 * * *");
  await dialog.getByLabel("Time zone").fill("Europe/Berlin");
  await expect(dialog.getByTestId("next-runs").locator("li")).toHaveCount(3);
  // In the reader's locale (en-US here: "2:30 AM"), in the schedule's time zone.
  await expect(dialog.getByTestId("next-runs")).toContainText(/\b0?2:30\b/);
  await dialog.getByLabel("Start a new run on one task").check();
  await dialog.getByRole("combobox", { name: "Pick the task" }).fill("dependency");
  await dialog.getByRole("option", { name: /Weekly dependency bump/ }).click();
  await expect(dialog.getByTestId("schedule-task")).toHaveText(`#${task.number} Weekly dependency bump`);
  await dialog.getByLabel("Agent").selectOption({ label: "Quick agent" });
  await dialog.getByLabel("Instructions for each run").fill("Bump what is outdated.");
  await screenshots(page, "schedule-dialog");
  await dialog.getByRole("button", { name: "Create schedule" }).click();
  const row = page.getByRole("listitem", { name: "Nightly triage" });
  await expect(row).toContainText("A new run on its task · Quick agent");

  await row.getByRole("button", { name: "Trigger now" }).click();
  await expect(row.getByTestId("triggered-run")).toHaveText(`Started attempt 1 on #${task.number} “Weekly dependency bump”`);
  await screenshots(page, "schedules");
  await row.getByRole("button", { name: "Watch progress" }).click();
  const progress = page.getByRole("dialog", { name: "Run of Nightly triage" });
  await expect(progress.getByTestId("run-status-value")).toHaveText("succeeded", { timeout: 30_000 });
  await page.keyboard.press("Escape");

  await row.getByRole("button", { name: "Delete schedule Nightly triage" }).click();
  await row.getByRole("button", { name: "Delete this schedule" }).click();
  await expect(page.getByRole("listitem", { name: "Nightly triage" })).toHaveCount(0);
  await expect(page.getByText("No schedules yet")).toBeVisible();
});

/** The page as it is, at a desktop's and a phone's size, then back to the test's own. */
async function screenshots(page: Page, name: string) {
  const size = page.viewportSize();
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ]) {
    await page.setViewportSize({ width, height });
    await screenshot(page, `${name}-${width}`);
  }
  if (size) await page.setViewportSize(size);
}
