import { expect, test, type Page } from "@playwright/test";
import { Api, column, openBoard, signIn } from "./helpers";

// Several cards at once (issue #37): Shift/Ctrl-click or `x` selects, the bar moves, assigns or
// deletes them together, and one Undo puts the whole change back. The card's ⋯ menu assigns one.

async function shots(page: Page, name: string) {
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ]) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: `/tmp/shots/board/${name}-${width}.png` });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

const todoTitles = (api: Api, ws: string) => api.column(ws, "todo");

test("selected cards move, get assigned and are deleted together, and one Undo puts each change back", async ({ page, request }) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  const keep = await api.task(ws.id, { title: "Alpha", status: "todo" });
  await api.call("POST", `/api/workspaces/${ws.id}/questions`, { task_id: keep.id, content: "Which colour?" }, 201);
  for (const title of ["Beta", "Gamma", "Delta"]) await api.task(ws.id, { title, status: "todo" });
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, `/w/${ws.id}`);
  await openBoard(page, ws.id);
  const todo = column(page, "To do");
  const card = (title: string) => page.getByRole("group", { name: title });

  // Shift-click, Ctrl-click and `x` on the focused card select; the count is announced.
  await card("Alpha").click({ modifiers: ["Shift"] });
  await card("Gamma").click({ modifiers: ["ControlOrMeta"] });
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await todo.getByRole("group", { name: "Delta" }).focus();
  await page.keyboard.press("x");
  await expect(page.getByRole("status").filter({ hasText: "3 selected" })).toBeAttached();
  await expect(todo.getByRole("group", { name: /, selected$/ })).toHaveCount(3);
  const bar = page.getByRole("toolbar", { name: "Selected tasks" });
  await shots(page, "selection-bar");

  // Move to Done together; Undo puts them back between their old neighbours.
  await bar.getByLabel("Move selected tasks to").selectOption("done");
  await expect(column(page, "Done").getByRole("group")).toHaveCount(3);
  await expect(bar).toHaveCount(0);
  await page.getByRole("status").filter({ hasText: "Moved 3 tasks to Done" }).getByRole("button", { name: "Undo" }).click();
  await expect.poll(() => todoTitles(api, ws.id)).toEqual(["Alpha", "Beta", "Gamma", "Delta"]);

  // Assign two to the signed-in person; Undo takes it back.
  await card("Beta").click({ modifiers: ["Shift"] });
  await card("Gamma").click({ modifiers: ["Shift"] });
  await bar.getByRole("button", { name: "Assign…" }).click();
  const assign = page.getByRole("dialog", { name: "Assign 2 tasks" });
  await assign.getByRole("group", { name: "People" }).getByRole("checkbox").first().check();
  await assign.getByRole("button", { name: "Save" }).click();
  const assigned = async () => {
    const page1 = await api.call<{ items: { title: string; assignees: unknown[] }[] }>("GET", `/api/workspaces/${ws.id}/board/column/todo`);
    return page1.items.filter((t) => t.assignees.length > 0).map((t) => t.title);
  };
  await expect.poll(assigned).toEqual(["Beta", "Gamma"]);
  await page.getByRole("status").filter({ hasText: "Assigned 2 tasks" }).getByRole("button", { name: "Undo" }).click();
  await expect.poll(assigned).toEqual([]);

  // Delete two; Undo gives them back whole (nothing was sent): Alpha keeps its question.
  await card("Alpha").click({ modifiers: ["Shift"] });
  await card("Delta").click({ modifiers: ["Shift"] });
  await page.keyboard.press("Escape");
  await expect(bar).toHaveCount(0);
  await card("Alpha").click({ modifiers: ["Shift"] });
  await card("Delta").click({ modifiers: ["Shift"] });
  await bar.getByRole("button", { name: "Delete" }).click();
  await expect(todo.getByRole("group")).toHaveCount(2);
  await page.getByRole("status").filter({ hasText: "Deleted 2 tasks" }).getByRole("button", { name: "Undo" }).click();
  await expect(todo.getByRole("group")).toHaveCount(4);
  const kept = await api.call<{ questions: { content: string }[] }>("GET", `/api/workspaces/${ws.id}/tasks/${keep.id}`);
  expect(kept.questions.map((q) => q.content)).toEqual(["Which colour?"]);
});

test("a card's ⋯ menu assigns it to people and agents with the assignee picker", async ({ page, request }) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  await api.task(ws.id, { title: "Own me", status: "backlog" });
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, `/w/${ws.id}`);
  await openBoard(page, ws.id);
  const card = column(page, "Backlog").getByRole("group", { name: "Own me" });
  await card.getByRole("button", { name: "Actions for Own me" }).click();
  await page.getByRole("menuitem", { name: "Assign…" }).click();
  const dialog = page.getByRole("dialog", { name: "Assign “Own me”" });
  await expect(dialog.getByRole("group", { name: "Agents" })).toBeVisible();
  await dialog.getByRole("group", { name: "People" }).getByRole("checkbox").first().check();
  await shots(page, "card-menu-assign");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText(/^Assigned “Own me” to /)).toBeVisible();
  await expect(card.getByRole("img").first()).toBeVisible();
  const backlog = await api.call<{ items: { assignees: { kind: string }[] }[] }>("GET", `/api/workspaces/${ws.id}/board/column/backlog`);
  expect(backlog.items[0].assignees.map((a) => a.kind)).toEqual(["user"]);
});

test("Undo puts moved cards back at their old places when the board is filtered and their neighbours are not loaded", async ({
  page,
  request,
}) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  for (const [title, tags] of [
    ["Alpha", ["red"]],
    ["Beta", []],
    ["Gamma", ["red"]],
    ["Delta", []],
    ["Epsilon", ["red"]],
  ] as const)
    await api.task(ws.id, { title, status: "todo", tags });
  await page.setViewportSize({ width: 1440, height: 900 });
  // Opened filtered: the unfiltered column (Beta, Delta) was never loaded in this browser.
  await signIn(page, `/w/${ws.id}?tag=red`);
  await expect(page.getByTitle(/^Live:/)).toBeVisible();
  const todo = column(page, "To do");
  await expect(todo.getByRole("group")).toHaveCount(3);
  const card = (title: string) => page.getByRole("group", { name: title });
  const bar = page.getByRole("toolbar", { name: "Selected tasks" });

  await card("Alpha").click({ modifiers: ["Shift"] });
  await card("Gamma").click({ modifiers: ["Shift"] });
  await bar.getByLabel("Move selected tasks to").selectOption("done");
  await expect.poll(() => todoTitles(api, ws.id)).toEqual(["Beta", "Delta", "Epsilon"]);
  await page.getByRole("status").filter({ hasText: "Moved 2 tasks to Done" }).getByRole("button", { name: "Undo" }).click();
  await expect.poll(() => todoTitles(api, ws.id)).toEqual(["Alpha", "Beta", "Gamma", "Delta", "Epsilon"]);
  await expect(todo.getByRole("group")).toHaveCount(3);

  // One card through its ⋯ menu, the same.
  await card("Gamma").getByRole("button", { name: "Actions for Gamma" }).click();
  await page.getByRole("menuitem", { name: "Move to Done" }).click();
  await expect.poll(() => todoTitles(api, ws.id)).toEqual(["Alpha", "Beta", "Delta", "Epsilon"]);
  await page.getByRole("status").filter({ hasText: "Moved “Gamma” to Done" }).getByRole("button", { name: "Undo" }).click();
  await expect.poll(() => todoTitles(api, ws.id)).toEqual(["Alpha", "Beta", "Gamma", "Delta", "Epsilon"]);
});
