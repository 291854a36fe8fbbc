import { expect, test } from "@playwright/test";
import { Api, column, openBoard, screenshot, signIn } from "./helpers";

test("a task added while the board is filtered gets the filter's project and stays in view; what the filter hides is said", async ({
  page,
  request,
}) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  const project = await api.call<{ id: string }>("POST", `/api/workspaces/${ws.id}/projects`, { name: "Launch" }, 201);
  await api.task(ws.id, { title: "Elsewhere", status: "todo" });
  await signIn(page, `/w/${ws.id}`);
  await openBoard(page, ws.id);

  await page.getByRole("combobox", { name: "Project" }).selectOption({ label: "Launch" });
  await expect(column(page, "To do").getByRole("group", { name: "Elsewhere" })).toHaveCount(0);
  await page.getByLabel("Add a task to To do").fill("Write the launch post");
  await page.getByLabel("Add a task to To do").press("Enter");
  const card = column(page, "To do").getByRole("group", { name: "Write the launch post" });
  await expect(card).toBeVisible();
  await expect(card).toContainText("Launch");
  const todo = await api.call<{ items: { title: string; project_id: string | null }[] }>(
    "GET",
    `/api/workspaces/${ws.id}/board/column/todo?limit=10`,
  );
  expect(todo.items.find((task) => task.title === "Write the launch post")?.project_id).toBe(project.id);

  // A title the search does not match is added, and the board says why it is not shown.
  await page.getByRole("searchbox").fill("launch");
  await page.getByLabel("Add a task to To do").fill("Order the cake");
  await page.getByLabel("Add a task to To do").press("Enter");
  await expect(page.getByText("Added “Order the cake” to To do; it is hidden by the search “launch”")).toBeVisible();
  await expect(column(page, "To do").getByRole("group", { name: "Order the cake" })).toHaveCount(0);
});

test("the board's filters are in the address: a reload and Back keep them; a project's name links to its tasks", async ({
  page,
  request,
}) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  const project = await api.call<{ id: string }>("POST", `/api/workspaces/${ws.id}/projects`, { name: "Launch" }, 201);
  await api.task(ws.id, { title: "Launch post", status: "todo", project_id: project.id, priority: "p1" });
  await api.task(ws.id, { title: "Launch party", status: "todo", project_id: project.id, priority: "p3" });
  await api.task(ws.id, { title: "Other post", status: "todo", priority: "p1" });
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, `/w/${ws.id}`);
  await openBoard(page, ws.id);
  const todo = column(page, "To do");

  await page.getByRole("combobox", { name: "Project" }).selectOption({ label: "Launch" });
  await page.getByRole("combobox", { name: "Priority" }).selectOption("p1");
  await page.getByRole("searchbox").fill("post");
  await expect.poll(() => new URL(page.url()).searchParams.get("q")).toBe("post");
  const params = new URL(page.url()).searchParams;
  expect([params.get("project_id"), params.get("priority")]).toEqual([project.id, "p1"]);
  await expect(todo.getByRole("group")).toHaveCount(1);
  await expect(todo.getByTestId("column-total")).toHaveText("1");

  await page.reload();
  await expect(page.getByRole("combobox", { name: "Project" })).toHaveValue(project.id);
  await expect(page.getByRole("combobox", { name: "Priority" })).toHaveValue("p1");
  await expect(page.getByRole("searchbox")).toHaveValue("post");
  await expect(todo.getByRole("group")).toHaveCount(1);
  await expect(todo.getByRole("group", { name: "Launch post" })).toBeVisible();
  await screenshot(page, "board-filters-url");
  await page.screenshot({ path: "/tmp/shots/board/filters-url-1440.png" });

  // Opening a task and going Back keeps the filters.
  await todo.getByRole("group", { name: "Launch post" }).click();
  await expect(page.getByRole("dialog", { name: /^Task #\d+$/ })).toBeVisible();
  await page.goBack();
  await expect(page.getByRole("dialog", { name: /^Task #\d+$/ })).toHaveCount(0);
  await expect.poll(() => new URL(page.url()).searchParams.get("project_id")).toBe(project.id);
  await expect(todo.getByRole("group")).toHaveCount(1);

  // The projects page links a project's name to the board filtered by it.
  await page.goto(`/w/${ws.id}/projects`);
  await page.getByRole("link", { name: "Launch" }).click();
  await expect.poll(() => new URL(page.url()).search).toBe(`?project_id=${project.id}`);
  await expect(todo.getByRole("group")).toHaveCount(2);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: "/tmp/shots/board/project-link-390.png" });
  await page.setViewportSize({ width: 1440, height: 900 });

  // So does the project's name on a card.
  await page.getByRole("combobox", { name: "Project" }).selectOption("");
  await expect(todo.getByRole("group")).toHaveCount(3);
  await todo.getByRole("group", { name: "Launch party" }).getByRole("link", { name: "Launch", exact: true }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get("project_id")).toBe(project.id);
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(todo.getByRole("group")).toHaveCount(2);
});
