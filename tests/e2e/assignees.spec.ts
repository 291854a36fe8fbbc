import { expect, test, type Page } from "@playwright/test";
import { Api, column, openBoard, screenshot, signIn } from "./helpers";

// Tasks that belong to someone (issue #37) in a browser: an agent ticked in the task dialog's
// assignee picker starts its run, a due date in the past makes the card say "Overdue" in words,
// and "Assigned to me" narrows the board to the signed-in person's cards.

async function setUp(request: Parameters<typeof Api.asAdmin>[0]) {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  const me = await api.call<{ id: string; username: string }>("GET", "/api/auth/me");
  // A command profile that echoes its instructions: its run starts and ends at once.
  const shell = await api.call<{ id: string }>(
    "POST",
    `/api/workspaces/${ws.id}/agents`,
    { name: "Shell", kind: "command", command: "cat" },
    201,
  );
  return { api, ws, me, shell };
}

const card = (page: Page, title: string) => page.getByRole("group", { name: title, exact: true });

test("assigning an agent in the task dialog starts its run", async ({ page, request }) => {
  test.setTimeout(90_000);
  const { api, ws } = await setUp(request);
  const task = await api.task(ws.id, { title: "Tidy the README", status: "todo" });

  await signIn(page, `/w/${ws.id}`);
  await openBoard(page, ws.id);
  await card(page, "Tidy the README").click();
  const dialog = page.getByRole("dialog", { name: `Task #${task.number}` });
  const agents = dialog.getByRole("group", { name: "Agents" });
  // Keyboard: the picker's entries are checkboxes, ticked with Space.
  await agents.getByRole("checkbox", { name: /Shell/ }).focus();
  await page.keyboard.press("Space");
  await expect(agents.getByRole("checkbox", { name: /Shell/ })).toBeChecked();
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved")).toBeVisible();

  await expect
    .poll(async () =>
      (await api.call<{ trigger: string }[]>("GET", `/api/workspaces/${ws.id}/tasks/${task.id}/runs`)).map((r) => r.trigger),
    )
    .toEqual(["assigned"]);
  await page.keyboard.press("Escape");
  const assigned = card(page, "Tidy the README");
  await expect(assigned.getByRole("img", { name: "Shell (agent)" })).toBeVisible();
  await expect(assigned.getByTestId("run-status")).toBeVisible();
  // Saved again with the same assignees: still one run.
  await assigned.click();
  await dialog.getByLabel("Title").fill("Tidy the README again");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByLabel("Title")).toHaveValue("Tidy the README again");
  const runs = await api.call<unknown[]>("GET", `/api/workspaces/${ws.id}/tasks/${task.id}/runs`);
  expect(runs).toHaveLength(1);
});

test("a due date in the past makes the card say Overdue, in words and in red", async ({ page, request }) => {
  const { api, ws } = await setUp(request);
  const task = await api.task(ws.id, { title: "File the report", status: "backlog" });
  await signIn(page, `/w/${ws.id}`);
  await openBoard(page, ws.id);
  await card(page, "File the report").click();
  const dialog = page.getByRole("dialog", { name: `Task #${task.number}` });
  await dialog.getByLabel("Due date").fill("2026-11-03");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved")).toBeVisible();
  await page.keyboard.press("Escape");
  const due = card(page, "File the report").getByTestId("due-label");
  await expect(due).toHaveText("Overdue · 3 Nov");
  await expect(due).toHaveAttribute("data-overdue", "true");
  await expect(due).toHaveClass(/text-red-900/);
  const saved = await api.call<{ due_at: string }>("GET", `/api/workspaces/${ws.id}/tasks/${task.id}`);
  expect(new Date(saved.due_at).getTime()).toBeLessThan(Date.now());
});

test("Assigned to me narrows the board to the signed-in person's cards; screenshots of avatars and the dialog", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const { api, ws, me, shell } = await setUp(request);
  await api.call(
    "POST",
    `/api/workspaces/${ws.id}/agents`,
    { name: "Claude Code", kind: "command", command: "cat", labels: ["never"] },
    201,
  );
  await api.task(ws.id, { title: "Mine", status: "backlog", assignees: [{ kind: "user", id: me.id }] });
  await api.task(ws.id, {
    title: "Mine and the agent's",
    status: "in_review",
    priority: "p1",
    tags: ["docs"],
    due_at: "2030-02-01T12:00:00Z",
    assignees: [
      { kind: "user", id: me.id },
      { kind: "agent", id: shell.id },
    ],
  });
  await api.task(ws.id, { title: "Nobody's", status: "backlog", due_at: "2026-11-03T12:00:00Z" });

  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, `/w/${ws.id}`);
  await openBoard(page, ws.id);
  await expect(card(page, "Mine").getByRole("img", { name: me.username })).toBeVisible();
  await screenshot(page, "board-assignees-1440");

  const toggle = page.getByRole("button", { name: "Assigned to me" });
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-pressed", "true");
  await expect(card(page, "Mine")).toBeVisible();
  await expect(column(page, "In review").getByRole("group", { name: "Mine and the agent's" })).toBeVisible();
  await expect(card(page, "Nobody's")).toHaveCount(0);
  await screenshot(page, "board-assigned-to-me-1440");
  // The list says the same, and Anyone shows every card again.
  await expect(page.getByRole("combobox", { name: /^Assignee/ })).toHaveValue("me");
  await page.getByRole("combobox", { name: /^Assignee/ }).selectOption("");
  await expect(toggle).toHaveAttribute("aria-pressed", "false");
  await expect(card(page, "Nobody's")).toBeVisible();
  await page.getByRole("combobox", { name: /^Assignee/ }).selectOption({ label: "Shell" });
  await expect(card(page, "Mine")).toHaveCount(0);
  await expect(card(page, "Mine and the agent's")).toBeVisible();
  await page.getByRole("combobox", { name: /^Assignee/ }).selectOption("");

  await card(page, "Mine and the agent's").click();
  const dialog = page.getByRole("dialog", { name: /^Task #/ });
  await expect(dialog.getByRole("group", { name: "People" }).getByRole("checkbox", { name: me.username })).toBeChecked();
  await dialog.getByRole("group", { name: "Assignees" }).scrollIntoViewIfNeeded();
  await screenshot(page, "task-dialog-assignees-1440");
  await page.keyboard.press("Escape");

  await page.setViewportSize({ width: 390, height: 844 });
  // A phone shows one column at a time (tests/e2e/phone-layout.spec.ts): Backlog's tab shows it.
  await page
    .getByRole("tablist", { name: "Columns" })
    .getByRole("tab", { name: /^Backlog/ })
    .click();
  await expect(card(page, "Mine")).toBeVisible();
  // The filter stays reachable at 390 px.
  await screenshot(page, "board-assignees-390");
  await page.getByRole("button", { name: "Assigned to me" }).scrollIntoViewIfNeeded();
  await expect(page.getByRole("button", { name: "Assigned to me" })).toBeInViewport();
  await page
    .getByRole("tablist", { name: "Columns" })
    .getByRole("tab", { name: /^In review/ })
    .click();
  await card(page, "Mine and the agent's").click();
  await dialog.getByRole("group", { name: "Assignees" }).scrollIntoViewIfNeeded();
  await screenshot(page, "task-dialog-assignees-390");
});
