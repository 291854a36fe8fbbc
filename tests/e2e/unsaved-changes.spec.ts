import { expect, test } from "@playwright/test";
import { Api, column, openBoard, signIn } from "./helpers";

test("closing a task with unsaved edits asks first, and the edits survive a reload until saved or discarded", async ({ page, request }) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  await api.task(ws.id, { title: "Plan the offsite", status: "todo" });
  await signIn(page, `/w/${ws.id}`);
  await openBoard(page, ws.id);

  await column(page, "To do").getByRole("group", { name: "Plan the offsite" }).click();
  const dialog = page.getByRole("dialog", { name: /^Task #\d+$/ });
  await dialog.getByLabel("Title").fill("Plan the offsite in Lisbon");
  await page.keyboard.press("Escape");
  const ask = dialog.getByRole("alertdialog", { name: "Unsaved changes" });
  await expect(ask).toBeVisible();
  await ask.getByRole("button", { name: "Keep editing" }).click();
  await expect(dialog.getByLabel("Title")).toHaveValue("Plan the offsite in Lisbon");

  // A reload gives the draft back: the open task is in the address, so it opens again, with the edits.
  await page.reload();
  await expect(dialog.getByLabel("Title")).toHaveValue("Plan the offsite in Lisbon");
  await expect(dialog.getByText("Your unsaved changes from before are back.")).toBeVisible();

  // Discarding closes without saving, and forgets the draft.
  await page.keyboard.press("Escape");
  await ask.getByRole("button", { name: "Discard changes" }).click();
  await expect(dialog).toHaveCount(0);
  await column(page, "To do").getByRole("group", { name: "Plan the offsite" }).click();
  await expect(dialog.getByLabel("Title")).toHaveValue("Plan the offsite");
  // With nothing changed, Escape closes at once.
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
});
