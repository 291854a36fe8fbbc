import path from "node:path";
import { expect, test } from "@playwright/test";
import { Api, bareRepository, column, openBoard, openRunDialog, screenshot, signIn } from "./helpers";

// Board automation (docs/board-automation.md) in a browser: a run started from a Backlog card moves
// the card to In progress, and its success with changes on the task's branch moves it to In review,
// live, without a reload. The agent is the fake ACP agent (tests/fixtures/fake-acp-agent.mjs),
// scripted to wait a moment and then write a file in the task's worktree.

const FAKE_AGENT = path.resolve("tests/fixtures/fake-acp-agent.mjs");

test("a card moves to In progress when its run starts and to In review when the run succeeds with changes", async ({ page, request }) => {
  test.setTimeout(120_000);
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  await api.call(
    "POST",
    `/api/workspaces/${ws.id}/agents`,
    { name: "Fake ACP", kind: "acp", command: process.execPath, args: [FAKE_AGENT], is_default: true },
    201,
  );
  await api.call("PUT", `/api/workspaces/${ws.id}/repository`, {
    url: bareRepository({ "CHANGELOG.md": "Version 1.\n" }),
    default_branch: "main",
  });
  await api.task(ws.id, { title: "Write the changelog", status: "backlog" });

  await signIn(page, `/w/${ws.id}`);
  await openBoard(page, ws.id);
  // Set on this document: still there at the end means the board never reloaded.
  await page.evaluate(() => Object.assign(window, { sameDocument: true }));
  const title = "Write the changelog";
  const runDialog = await openRunDialog(page, column(page, "Backlog").getByRole("group", { name: title }));
  await runDialog.getByLabel("Instructions").fill("@fake sleep 5000\n@fake write CHANGELOG.md Version 2: board automation.");
  await runDialog.getByRole("button", { name: "Start run" }).click();
  const view = page.getByRole("dialog", { name: new RegExp(`${title}$`) });
  await expect(view.getByTestId("run-view")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(view).toHaveCount(0);

  const inProgress = column(page, "In progress").getByRole("group", { name: title });
  await expect(inProgress).toBeVisible();
  await expect(inProgress).toHaveAttribute("data-run-state", "running");
  await expect(column(page, "Backlog").getByRole("group", { name: title })).toHaveCount(0);
  await screenshot(page, "board-automation-in-progress");

  const inReview = column(page, "In review").getByRole("group", { name: title });
  await expect(inReview).toBeVisible({ timeout: 60_000 });
  await expect(inReview.getByTestId("run-status")).toContainText("Run succeeded");
  await expect(column(page, "In progress").getByRole("group", { name: title })).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  await screenshot(page, "board-automation-in-review");

  // The task's history says the server moved it.
  await inReview.click();
  const activity = page.getByRole("dialog").getByRole("list", { name: "Task timeline, newest last" });
  await expect(activity).toContainText("Moved to In review");
  await expect(activity).toContainText("Moved to In progress");
});

test("an owner turns board automation off in Settings", async ({ page, request }) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  await signIn(page, `/w/${ws.id}/settings`);
  const setting = page.getByRole("region", { name: "Board" }).getByRole("checkbox", { name: /Move tasks along with their agent runs/ });
  await expect(setting).toBeChecked();
  await setting.scrollIntoViewIfNeeded();
  await screenshot(page, "settings-board-automation");
  await setting.click();
  await expect(setting).not.toBeChecked();
  await expect
    .poll(async () => (await api.call<{ auto_move_tasks: boolean }>("GET", `/api/workspaces/${ws.id}`)).auto_move_tasks)
    .toBe(false);

  // Off: a run leaves its task where it is (the server's demo agent changes nothing either way).
  const task = await api.task(ws.id, { title: "Stays put", status: "todo" });
  await api.call("POST", `/api/workspaces/${ws.id}/tasks/${task.id}/runs`, {}, 202);
  expect((await api.call<{ status: string }>("GET", `/api/workspaces/${ws.id}/tasks/${task.id}`)).status).toBe("todo");
});
