import { expect, test } from "@playwright/test";
import { Api, column, openBoard, screenshot, signIn } from "./helpers";

test("an opened task is in the address: Back closes it, its link opens it, and the focus returns to its card", async ({
  page,
  context,
  request,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  const task = await api.task(ws.id, { title: "Share me", status: "todo" });
  await signIn(page, `/w/${ws.id}`);
  await openBoard(page, ws.id);
  const card = column(page, "To do").getByRole("group", { name: "Share me" });

  await card.click();
  const dialog = page.getByRole("dialog", { name: /^Task #\d+$/ });
  await expect(dialog).toBeVisible();
  await expect.poll(() => new URL(page.url()).searchParams.get("task")).toBe(task.id);
  await page.goBack();
  await expect(dialog).toHaveCount(0);
  await expect.poll(() => new URL(page.url()).searchParams.get("task")).toBeNull();
  await expect(column(page, "To do")).toBeVisible(); // Back closed the task and stayed on the board

  // Escape returns the keyboard to the card it was opened from.
  await card.click();
  await expect(dialog.getByLabel("Title")).toHaveValue("Share me"); // a person presses Escape on what they see
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(card).toBeFocused();

  // The card's menu copies the task's link; the link opens the task.
  await card.getByRole("button", { name: "Actions for Share me" }).click();
  await page.getByRole("menuitem", { name: "Copy link" }).click();
  await expect(page.getByText("Link copied")).toBeVisible();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toBe(`${new URL(page.url()).origin}/w/${ws.id}?task=${task.id}`);
  await page.goto(link);
  await expect(dialog.getByLabel("Title")).toHaveValue("Share me");
  // The dialog has the same link.
  await page.evaluate(() => navigator.clipboard.writeText(""));
  await dialog.getByRole("button", { name: "Copy link" }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(link);
});

test("Move to and Delete from a card's menu can be undone; an undone delete keeps the task's questions and runs", async ({
  page,
  request,
}) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  for (const title of ["First", "Second", "Third"]) await api.task(ws.id, { title, status: "todo" });
  const keep = await api.task(ws.id, { title: "Keep me", status: "in_progress" });
  await api.call("POST", `/api/workspaces/${ws.id}/questions`, { task_id: keep.id, content: "Which colour?" }, 201);
  await signIn(page, `/w/${ws.id}`);
  await openBoard(page, ws.id);

  const second = column(page, "To do").getByRole("group", { name: "Second" });
  await second.getByRole("button", { name: "Actions for Second" }).click();
  await page.getByRole("menuitem", { name: "Move to Done" }).click();
  await expect(column(page, "Done").getByRole("group", { name: "Second" })).toBeVisible();
  await screenshot(page, "card-menu-undo");
  await page.getByRole("status").filter({ hasText: "Moved “Second” to Done" }).getByRole("button", { name: "Undo" }).click();
  // Back where it was, between the same neighbours.
  await expect
    .poll(async () =>
      (await api.call<{ items: { title: string }[] }>("GET", `/api/workspaces/${ws.id}/board/column/todo`)).items.map((t) => t.title),
    )
    .toEqual(["First", "Second", "Third"]);

  const card = column(page, "In progress").getByRole("group", { name: "Keep me" });
  await card.getByRole("button", { name: "Actions for Keep me" }).click();
  await page.getByRole("menuitem", { name: "Delete" }).click();
  await expect(card).toHaveCount(0);
  await page.getByRole("status").filter({ hasText: "Deleted “Keep me”" }).getByRole("button", { name: "Undo" }).click();
  await expect(column(page, "In progress").getByRole("group", { name: "Keep me" })).toBeVisible();
  // Nothing was deleted: the task keeps its question.
  const kept = await api.call<{ questions: { content: string }[] }>("GET", `/api/workspaces/${ws.id}/tasks/${keep.id}`);
  expect(kept.questions.map((q) => q.content)).toEqual(["Which colour?"]);

  // Without Undo the delete goes through once the 10 s are over.
  await column(page, "To do").getByRole("group", { name: "Third" }).getByRole("button", { name: "Actions for Third" }).click();
  await page.getByRole("menuitem", { name: "Delete" }).click();
  await expect
    .poll(
      async () =>
        (await api.call<{ items: { title: string }[] }>("GET", `/api/workspaces/${ws.id}/board/column/todo`)).items.map((t) => t.title),
      {
        timeout: 20_000,
      },
    )
    .toEqual(["First", "Second"]);
});
