import { expect, test } from "@playwright/test";
import { Api, column, openBoard, signIn } from "./helpers";

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
