import { expect, test } from "@playwright/test";
import { Api, cardTitles, column, dragAnnouncements, dragCard, openBoard, screenshot, signIn } from "./helpers";

test("sign in, create a workspace and add tasks on the board", async ({ page }) => {
  await signIn(page);
  const name = `Board ${Date.now()}`;
  await page.getByLabel("New workspace name").fill(name);
  await page.getByRole("button", { name: "Create workspace" }).click();
  await expect(page.getByTitle(/^Live:/)).toBeVisible();

  for (const title of ["Columns", "Skeletons"]) {
    await expect(column(page, "Backlog").getByText(/No tasks/)).toHaveCount(title === "Columns" ? 1 : 0);
    await page.getByLabel("Add a task to Backlog").fill(title);
    await page.getByLabel("Add a task to Backlog").press("Enter");
    await expect(column(page, "Backlog").getByRole("group", { name: title, exact: true })).toBeVisible();
  }
  // The `n` shortcut goes to the quick add.
  await page.locator("body").click({ position: { x: 5, y: 300 } });
  await page.keyboard.press("n");
  await expect(page.getByLabel("Add a task to Backlog")).toBeFocused();
  await page.keyboard.type("From the keyboard");
  await page.keyboard.press("Enter");
  await expect(column(page, "Backlog").getByRole("group", { name: "From the keyboard" })).toBeVisible();
  await expect(column(page, "Backlog").getByTestId("column-total")).toHaveText("3");
  for (const title of ["Backlog", "To do", "In progress", "In review", "Done"]) await expect(column(page, title)).toBeVisible();
  await screenshot(page, "board");

  // The help dialog lists the shortcuts and closes on Escape.
  await page.keyboard.press("Escape");
  await page.locator("body").click({ position: { x: 5, y: 300 } });
  await page.keyboard.press("?");
  const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(help).toBeVisible();
  await screenshot(page, "help-dialog");
  await page.keyboard.press("Escape");
  await expect(help).toBeHidden();

  // Edit in the task dialog.
  await column(page, "Backlog").getByRole("group", { name: "Skeletons", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: /^Task #\d+$/ });
  await expect(dialog.getByLabel("Title")).toHaveValue("Skeletons");
  await dialog.getByLabel("Priority").selectOption("p0");
  await dialog.getByLabel("Tags (comma-separated)").fill("ui, polish");
  await screenshot(page, "task-dialog");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
  await page.keyboard.press("Escape");
  const card = column(page, "Backlog").getByRole("group", { name: "Skeletons", exact: true });
  await expect(card).toContainText("#polish");
  await expect(card).toContainText("p0");

  // Usable at 1024 px: every column can still be reached.
  await page.setViewportSize({ width: 1024, height: 768 });
  await column(page, "Done").scrollIntoViewIfNeeded();
  await expect(column(page, "Done")).toBeInViewport();
  await screenshot(page, "board-1024");
});

test("drag by mouse across columns and within one; the order survives a reload", async ({ page, request }) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  for (const title of ["A", "B", "C"]) await api.task(ws.id, { title, status: "backlog" });
  await api.task(ws.id, { title: "T1", status: "todo" });
  await signIn(page, `/w/${ws.id}`);
  await openBoard(page, ws.id);
  await expect.poll(() => cardTitles(page, "Backlog")).toEqual(["A", "B", "C"]);

  const backlog = column(page, "Backlog");
  // Within a column: C onto A puts C first.
  await dragCard(page, backlog.getByRole("group", { name: "C", exact: true }), backlog.getByRole("group", { name: "A", exact: true }), -10);
  await expect.poll(() => cardTitles(page, "Backlog")).toEqual(["C", "A", "B"]);
  // Across columns: B onto the lower half of T1 lands below it.
  const todo = column(page, "To do");
  await dragCard(page, backlog.getByRole("group", { name: "B", exact: true }), todo.getByRole("group", { name: "T1", exact: true }), 15);
  await expect.poll(() => cardTitles(page, "To do")).toEqual(["T1", "B"]);
  await expect.poll(() => cardTitles(page, "Backlog")).toEqual(["C", "A"]);
  await expect(todo.getByTestId("column-total")).toHaveText("2");

  await expect.poll(() => api.column(ws.id, "backlog")).toEqual(["C", "A"]);
  await page.reload();
  await expect.poll(() => cardTitles(page, "Backlog")).toEqual(["C", "A"]);
  await expect.poll(() => cardTitles(page, "To do")).toEqual(["T1", "B"]);
});

test("drag by keyboard within a column and to the next one; the order survives a reload", async ({ page, request }) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  for (const title of ["K1", "K2", "K3"]) await api.task(ws.id, { title, status: "backlog" });
  await signIn(page, `/w/${ws.id}`);
  await openBoard(page, ws.id);
  await expect.poll(() => cardTitles(page, "Backlog")).toEqual(["K1", "K2", "K3"]);

  const backlog = column(page, "Backlog");
  await backlog.getByRole("group", { name: "K1", exact: true }).focus();
  await page.keyboard.press("Space");
  // Arrows count only once dnd-kit has measured the cards and found the one under K1 (K1 itself):
  // an arrow pressed at "Picked up" moved nothing (seen in CI).
  await expect(dragAnnouncements(page)).toContainText("Task K1 is back in its place");
  await page.keyboard.press("ArrowDown");
  await expect(dragAnnouncements(page)).toContainText("Task K1 is over task K2 in Backlog");
  const moved = page.waitForResponse((response) => response.url().endsWith("/move") && response.request().method() === "POST");
  await page.keyboard.press("Space");
  await expect.poll(() => cardTitles(page, "Backlog")).toEqual(["K2", "K1", "K3"]);
  // The next drag starts once this move has settled: its answer, and the live event that follows
  // it and re-renders the column. An arrow pressed just as that event landed moved nothing (seen in CI once).
  expect((await moved).status()).toBe(200);
  await page.waitForTimeout(300);

  await backlog.getByRole("group", { name: "K3", exact: true }).focus();
  await page.keyboard.press("Space");
  await expect(dragAnnouncements(page)).toContainText("Task K3 is back in its place");
  await page.keyboard.press("ArrowRight");
  await expect(dragAnnouncements(page)).toContainText("Task K3 is over column To do");
  await page.keyboard.press("Space");
  await expect.poll(() => cardTitles(page, "To do")).toEqual(["K3"]);
  await expect.poll(() => cardTitles(page, "Backlog")).toEqual(["K2", "K1"]);
  // The keyboard stays on the dropped card, in its new column, not on the page's body.
  await expect(column(page, "To do").getByRole("group", { name: "K3", exact: true })).toBeFocused();

  await page.reload();
  await expect.poll(() => cardTitles(page, "Backlog")).toEqual(["K2", "K1"]);
  await expect.poll(() => cardTitles(page, "To do")).toEqual(["K3"]);
});

test("scrolling a 60-task column loads pages 2 and 3", async ({ page, request }) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  for (let i = 1; i <= 60; i++) await api.task(ws.id, { title: `Task ${String(i).padStart(2, "0")}`, status: "todo" });
  const offsets: string[] = [];
  const firstPages: string[] = [];
  page.on("request", (req) => {
    const url = new URL(req.url());
    if (url.pathname.endsWith("/board/column/todo")) offsets.push(url.searchParams.get("offset") ?? "0");
    if (url.pathname.endsWith("/board")) firstPages.push(url.searchParams.get("limit") ?? "");
  });
  await signIn(page);
  await openBoard(page, ws.id);
  const todo = column(page, "To do");
  await expect(todo.getByTestId("column-total")).toHaveText("60");
  await expect(todo.getByRole("group", { name: "Task 01", exact: true })).toBeVisible();
  // Page 1 of every column came in one request of 20 per column.
  expect(firstPages).toEqual(["20"]);
  expect(offsets).toEqual([]);

  const scroller = page.getByTestId("column-scroll-todo");
  for (const offset of ["20", "40"]) {
    await expect(async () => {
      await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
      expect(offsets).toContain(offset);
    }).toPass();
  }
  await expect(async () => {
    await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await expect(todo.getByRole("group", { name: "Task 60", exact: true })).toBeVisible({ timeout: 500 });
  }).toPass();
  await screenshot(page, "board-60-tasks");
  expect(offsets).toEqual(["20", "40"]);
  // Virtualized: far fewer cards in the DOM than loaded.
  expect(await todo.locator("[data-task-id]").count()).toBeLessThan(60);
});

test("a refused move puts the card back and says why", async ({ page, request }) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  const [a, b] = [await api.task(ws.id, { title: "R-A", status: "backlog" }), await api.task(ws.id, { title: "R-B", status: "backlog" })];
  await api.task(ws.id, { title: "R-C", status: "backlog" });
  // No live updates for this page, so its view of the column goes stale.
  await page.route("**/events*", (route) => route.abort());
  await signIn(page, `/w/${ws.id}`);
  await page.goto(`/w/${ws.id}`);
  await expect.poll(() => cardTitles(page, "Backlog")).toEqual(["R-A", "R-B", "R-C"]);
  await api.call("POST", `/api/workspaces/${ws.id}/tasks/${b.id}/move`, { column: "done" });

  // A dropped onto B: A should land between B and C, but B has left the column: 409.
  const backlog = column(page, "Backlog");
  await dragCard(
    page,
    backlog.getByRole("group", { name: "R-A", exact: true }),
    backlog.getByRole("group", { name: "R-B", exact: true }),
    10,
  );
  await expect(page.getByRole("alert").filter({ hasText: "could not be moved" })).toBeVisible();
  expect((await cardTitles(page, "Backlog"))[0]).toBe("R-A");
  await screenshot(page, "refused-move");
  // The card went back (R-A still first), and the refreshed board now shows the server's truth.
  await expect.poll(() => cardTitles(page, "Backlog")).toEqual(["R-A", "R-C"]);
  await expect.poll(() => cardTitles(page, "Done")).toEqual(["R-B"]);
  expect(await api.column(ws.id, "backlog")).toEqual(["R-A", "R-C"]);
  void a;
});

test("a link to one task (?task=<id>) opens its dialog once", async ({ page, request }) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  const task = await api.task(ws.id, { title: "Linked from a pull request", status: "in_review" });
  await signIn(page, `/w/${ws.id}?task=${task.id}`);
  const dialog = page.getByRole("dialog", { name: /^Task #\d+$/ });
  await expect(dialog.getByLabel("Title")).toHaveValue("Linked from a pull request");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  // Closing drops the parameter, so a reload shows the board alone.
  await expect.poll(() => new URL(page.url()).searchParams.get("task")).toBeNull();
  await expect(column(page, "In review").getByRole("group", { name: "Linked from a pull request" })).toBeVisible();
});

test("the quick add stays ready for the next title while one saves, and gives a failed title back", async ({ page, request }) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  await signIn(page, `/w/${ws.id}`);
  await openBoard(page, ws.id);
  const quickAdd = page.getByLabel("Add a task to Backlog");
  const tasksUrl = `**/api/workspaces/${ws.id}/tasks`;

  // The server answers the first title only when the test says so: a slow network.
  let answer!: () => void;
  const held = new Promise<void>((resolve) => (answer = resolve));
  await page.route(tasksUrl, async (route) => {
    if (route.request().method() === "POST") await held;
    await route.continue();
  });
  await quickAdd.fill("Saved slowly");
  await quickAdd.press("Enter");
  await expect(quickAdd).toHaveValue("");
  await expect(quickAdd).toBeFocused();
  await page.keyboard.type("Typed while saving");
  answer();
  await expect(column(page, "Backlog").getByRole("group", { name: "Saved slowly" })).toBeVisible();
  await expect(quickAdd).toHaveValue("Typed while saving");
  await quickAdd.press("Enter");
  await expect(column(page, "Backlog").getByRole("group", { name: "Typed while saving" })).toBeVisible();
  await page.unroute(tasksUrl);

  // A save that never reaches the server says so, and the title is back in the field to try again.
  await page.route(tasksUrl, (route) => (route.request().method() === "POST" ? route.abort("failed") : route.continue()));
  await quickAdd.fill("Lost on the way");
  await quickAdd.press("Enter");
  await expect(page.getByRole("alert").filter({ hasText: "“Lost on the way” was not added" })).toBeVisible();
  await expect(quickAdd).toHaveValue("Lost on the way");
  await page.unroute(tasksUrl);
  await quickAdd.press("Enter");
  await expect(column(page, "Backlog").getByRole("group", { name: "Lost on the way" })).toBeVisible();
  expect(await api.column(ws.id, "backlog")).toEqual(["Saved slowly", "Typed while saving", "Lost on the way"]);
});
