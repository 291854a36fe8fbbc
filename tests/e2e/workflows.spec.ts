import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { Api, cardTitles, column, openBoard, openRunDialog, scratchDir, screenshot, signIn } from "./helpers";

test("answer a question from the panel: the card's question badge clears and the answer stays listed after a reload", async ({
  page,
  request,
}) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  const task = await api.task(ws.id, { title: "Pick a database", status: "in_progress" });
  await api.call("POST", `/api/workspaces/${ws.id}/questions`, {
    task_id: task.id,
    content: "Which database should the service use?",
    context: "Both are supported by the driver adapters.",
    options: ["PostgreSQL", "SQLite"],
    priority: 1,
  });
  await signIn(page, `/w/${ws.id}`);
  await openBoard(page, ws.id);
  const card = column(page, "In progress").getByRole("group", { name: "Pick a database" });
  // An open question is a question on the card, not "Blocked" (the word of dependencies and the blocked flag).
  await expect(card.getByTestId("question-badge")).toHaveText("Question · 1");
  await expect(card.getByTestId("blocked-badge")).toHaveCount(0);
  await expect(page.getByTestId("open-question-count")).toHaveText("1");

  await page.locator("body").click({ position: { x: 5, y: 300 } });
  await page.keyboard.press("q");
  const panel = page.getByRole("complementary", { name: "Questions" });
  await expect(panel).toBeVisible();
  await expect(panel.getByText("Which database should the service use?")).toBeVisible();
  await expect(panel.getByText("Both are supported by the driver adapters.")).toBeVisible();
  await screenshot(page, "question-panel");

  await panel.getByRole("button", { name: "PostgreSQL" }).click();
  await expect(card.getByTestId("question-badge")).toHaveCount(0);
  await expect(page.getByTestId("open-question-count")).toHaveText("0");
  await expect(panel.getByText("No open questions")).toBeVisible();
  const questions = await api.call<{ answer: string; status: string }[]>("GET", `/api/workspaces/${ws.id}/questions?task_id=${task.id}`);
  expect(questions[0]).toMatchObject({ answer: "PostgreSQL", status: "answered" });

  // Answered questions stay listed, with who answered and when, after a reload too.
  await page.reload();
  await page.locator("body").click({ position: { x: 5, y: 300 } });
  await page.keyboard.press("q");
  await page.getByRole("complementary", { name: "Questions" }).getByRole("tab", { name: "Answered" }).click();
  const answered = page
    .getByRole("list", { name: "Answered questions" })
    .getByRole("listitem", { name: "Which database should the service use?" });
  await expect(answered).toContainText("→ PostgreSQL");
  await expect(answered.getByTestId("answered-by")).toContainText("Answered by admin via board · ");
  await screenshot(page, "questions-answered");
});

test("fix conflicts on a conflicted task and watch its execution finish", async ({ page, request }) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  // The fix merges in git: a repository, and the task's own branch, which main has moved away from.
  // The merge is clean, so the server pushes it and the agent is not needed
  // (tests/api/worktrees.test.ts covers the conflicted merge an agent resolves).
  const task = await api.task(ws.id, { title: "Conflicted PR", status: "in_review", pr_url: "https://github.com/acme/app/pull/42" });
  const branch = `tb/${task.number}-conflicted-pr`;
  const remote = remoteWithBranch(branch);
  await api.call("PUT", `/api/workspaces/${ws.id}/repository`, { url: remote }, 200);
  await api.call("PATCH", `/api/workspaces/${ws.id}/tasks/${task.id}`, { has_merge_conflict: true, branch });
  await signIn(page, `/w/${ws.id}`);
  await openBoard(page, ws.id);
  const card = column(page, "In review").getByRole("group", { name: "Conflicted PR" });
  await expect(card.getByTestId("conflict-badge")).toBeVisible();
  await expect(card.getByRole("link", { name: "PR #42" })).toBeVisible();

  await card.getByRole("button", { name: "Fix conflicts" }).click();
  const dialog = page.getByRole("dialog", { name: "Fixing conflicts: Conflicted PR" });
  await expect(dialog).toBeVisible();
  // The fix-conflicts progress is the run view: log (git's steps), status, report.
  await expect(dialog.getByTestId("run-status-value")).toHaveText("succeeded", { timeout: 30_000 });
  await expect(dialog.getByTestId("run-log")).toContainText(`Pushed ${branch}`);
  await screenshot(page, "execution-running");
  await dialog.getByRole("tab", { name: "Report" }).click();
  await expect(dialog.getByTestId("run-report")).toContainText("without conflicts");
  await screenshot(page, "execution-finished");
  await page.keyboard.press("Escape");
  await expect(card.getByTestId("run-status")).toContainText("succeeded");
  // The fix cleared the conflict flag after the push, and the card heard of it.
  await expect(card.getByTestId("conflict-badge")).toHaveCount(0);

  // A start while another run of the task is going is refused (409), and the refusal is shown in words.
  await api.call("PATCH", `/api/workspaces/${ws.id}/tasks/${task.id}`, { has_merge_conflict: true });
  const button = card.getByRole("button", { name: "Fix conflicts" });
  await expect(button).toBeVisible();
  await api.call("POST", `/api/workspaces/${ws.id}/tasks/${task.id}/runs`, {}, 202);
  await button.click();
  await expect(page.getByRole("alert").filter({ hasText: "already running" })).toBeVisible();
});

test("Fix conflicts without a repository hands the pull request to the agent; the demo agent refuses in words and the conflict stays", async ({
  page,
  request,
}) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  const pr = "https://github.com/acme/app/pull/7";
  const task = await api.task(ws.id, { title: "Conflicted, no repository", status: "in_review", pr_url: pr });
  await api.call("PATCH", `/api/workspaces/${ws.id}/tasks/${task.id}`, { has_merge_conflict: true });
  await signIn(page, `/w/${ws.id}`);
  await openBoard(page, ws.id);
  const card = column(page, "In review").getByRole("group", { name: "Conflicted, no repository" });
  await expect(card.getByTestId("conflict-badge")).toBeVisible();

  // Without a profile the Run dialog offers the demo agent by that name, and says what it is.
  const runDialog = await openRunDialog(page, card);
  const agent = runDialog.getByRole("combobox", { name: "Agent" });
  await expect(agent).toHaveValue("");
  await expect(agent.locator("option:checked")).toHaveText("Demo agent (changes nothing)");
  await expect(runDialog.getByTestId("fallback-agent")).toContainText("changes nothing");
  await runDialog.getByRole("button", { name: "Cancel" }).click();

  await card.getByRole("button", { name: "Fix conflicts" }).click();
  const dialog = page.getByRole("dialog", { name: "Fixing conflicts: Conflicted, no repository" });
  // The workspace has no agent profile: the demo agent got the pull request, and says it cannot fix it.
  await expect(dialog.getByTestId("run-status-value")).toHaveText("failed", { timeout: 30_000 });
  await expect(dialog.getByTestId("run-log")).toContainText(`pull request: ${pr}`);
  await expect(dialog).toContainText("The demo agent cannot fix merge conflicts");
  await expect(dialog.getByTestId("run-log")).not.toContainText("Fetching");
  await screenshot(page, "fix-conflicts-demo-refuses");
  await page.keyboard.press("Escape");
  // Nothing was fixed, so the conflict stays and the card stays in review.
  await expect(card.getByTestId("conflict-badge")).toBeVisible();
  const after = await api.call<{ has_merge_conflict: boolean; status: string }>("GET", `/api/workspaces/${ws.id}/tasks/${task.id}`);
  expect(after).toMatchObject({ has_merge_conflict: true, status: "in_review" });
});

/** A bare repository whose `branch` and main changed different files since they parted. */
function remoteWithBranch(branch: string): string {
  const root = scratchDir("fix-");
  const work = path.join(root, "work");
  const remote = path.join(root, "remote.git");
  const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=e2e", "-c", "user.email=e2e@e2e", ...args], { cwd: work });
  execFileSync("git", ["init", "-q", "--bare", "-b", "main", remote]);
  execFileSync("git", ["init", "-q", "-b", "main", work]);
  fs.writeFileSync(path.join(work, "a.txt"), "a\n");
  fs.writeFileSync(path.join(work, "b.txt"), "b\n");
  git("add", "-A");
  git("commit", "-q", "-m", "seed");
  git("remote", "add", "origin", remote);
  git("push", "-q", "origin", "main");
  git("checkout", "-q", "-b", branch);
  fs.writeFileSync(path.join(work, "a.txt"), "A\n");
  git("commit", "-q", "-am", "branch");
  git("push", "-q", "origin", branch);
  git("checkout", "-q", "main");
  fs.writeFileSync(path.join(work, "b.txt"), "B\n");
  git("commit", "-q", "-am", "main");
  git("push", "-q", "origin", "main");
  return remote;
}

test("a second browser sees changes made through the API without reloading", async ({ page, browser, request }) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  const first = await api.task(ws.id, { title: "Already there", status: "todo" });
  const other = await browser.newContext();
  const watcher = await other.newPage();
  await signIn(watcher, `/w/${ws.id}`);
  await openBoard(watcher, ws.id);
  await signIn(page, `/w/${ws.id}`);
  await openBoard(page, ws.id);
  await expect.poll(() => cardTitles(watcher, "To do")).toEqual(["Already there"]);
  let navigations = 0;
  watcher.on("framenavigated", () => navigations++);

  const started = Date.now();
  await api.task(ws.id, { title: "Made by a script", status: "todo" });
  await expect.poll(() => cardTitles(watcher, "To do")).toEqual(["Already there", "Made by a script"]);
  test.info().annotations.push({ type: "live-update-ms", description: String(Date.now() - started) });

  await api.call("POST", `/api/workspaces/${ws.id}/tasks/${first.id}/move`, { column: "done" });
  await expect.poll(() => cardTitles(watcher, "Done")).toEqual(["Already there"]);
  await expect(column(watcher, "To do").getByTestId("column-total")).toHaveText("1");
  await api.call("PATCH", `/api/workspaces/${ws.id}/tasks/${first.id}`, { title: "Renamed by a script" });
  await expect.poll(() => cardTitles(watcher, "Done")).toEqual(["Renamed by a script"]);

  // A change made in the other browser arrives too.
  await page.getByLabel("Add a task to In progress").fill("Made in the first browser");
  await page.getByLabel("Add a task to In progress").press("Enter");
  await expect.poll(() => cardTitles(watcher, "In progress")).toEqual(["Made in the first browser"]);
  await api.call("DELETE", `/api/workspaces/${ws.id}/tasks/${first.id}`, undefined, 204);
  await expect.poll(() => cardTitles(watcher, "Done")).toEqual([]);
  expect(navigations).toBe(0);
  await screenshot(watcher, "live-updates");
  await other.close();
});

test("a task created between the board's load and the live stream's connection appears without a reload", async ({ page, request }) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  await api.task(ws.id, { title: "Loaded with the board", status: "todo" });
  let release!: () => void;
  const created = new Promise<void>((resolve) => (release = resolve));
  // Every event-stream connection waits until the task below exists; the board has loaded by then.
  await page.route("**/api/workspaces/*/events*", async (route) => {
    await created;
    await route.continue().catch(() => {}); // a connection the page gave up meanwhile
  });
  await signIn(page, `/w/${ws.id}`);
  await expect.poll(() => cardTitles(page, "To do")).toEqual(["Loaded with the board"]);
  await api.task(ws.id, { title: "Made before the stream connected", status: "todo" });
  release();
  await expect.poll(() => cardTitles(page, "To do")).toEqual(["Loaded with the board", "Made before the stream connected"]);
  await expect(page.getByTitle(/^Live:/)).toBeVisible();
});

test("projects, settings and dark mode pages", async ({ page, request }) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  await signIn(page, `/w/${ws.id}/projects`);
  await expect(page.getByText("No projects yet")).toBeVisible();
  await page.getByRole("button", { name: "New project" }).click();
  const dialog = page.getByRole("dialog", { name: "New project" });
  await dialog.getByLabel("Name").fill("Checkout");
  await dialog.getByLabel("Priority").selectOption("p1");
  await dialog.getByLabel("Tags (comma-separated)").fill("payments, web");
  await dialog.getByLabel("Phases (one per line, in order)").fill("Design\nBuild\nShip");
  await dialog.getByRole("button", { name: "Create project" }).click();
  await expect(page.getByRole("cell", { name: "Checkout", exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Edit Checkout" }).click();
  await page.getByRole("dialog", { name: "Edit Checkout" }).getByLabel("Status").selectOption("paused");
  await page.getByRole("dialog", { name: "Edit Checkout" }).getByRole("button", { name: "Save project" }).click();
  await expect(page.getByRole("cell", { name: "paused", exact: true })).toBeVisible();
  await screenshot(page, "projects");

  // A task in that project and phase shows both on its card; the project filter keeps it.
  const projects = await api.call<{ id: string }[]>("GET", `/api/workspaces/${ws.id}/projects`);
  await api.task(ws.id, { title: "Pay button", status: "todo", project_id: projects[0].id, phase: 2, tags: ["web"] });
  await api.task(ws.id, { title: "Unrelated", status: "todo" });
  await page.getByRole("link", { name: "Board", exact: true }).click();
  await expect(column(page, "To do").getByRole("group", { name: "Pay button" })).toContainText("Checkout · Build");
  await page.getByLabel("Project").selectOption({ label: "Checkout" });
  await expect.poll(() => cardTitles(page, "To do")).toEqual(["Pay button"]);
  await page.keyboard.press("/");
  await expect(page.getByPlaceholder(/Search tasks/)).toBeFocused();

  await page.getByRole("link", { name: "Settings", exact: true }).click();
  // The Playwright server has a (fake) GitHub App configured (scripts/e2e-server.mjs); this workspace has no installation.
  await expect(page.getByTestId("codehost-settings-status")).toHaveText("Not connected");
  await page.getByLabel("Key name").fill("e2e script");
  await page.getByRole("button", { name: "Create key" }).click();
  const key = await page.getByLabel("New API key").inputValue();
  expect(key.length).toBeGreaterThan(20);
  const withKey = await request.get(`/api/workspaces/${ws.id}`, { headers: { authorization: `Bearer ${key}` } });
  expect(withKey.status()).toBe(200);
  await screenshot(page, "settings");
  await page.getByRole("button", { name: "Done" }).click();
  await page.getByRole("button", { name: "Delete key e2e script" }).click();
  await page.getByRole("button", { name: "Delete e2e script" }).click();
  await expect(page.getByText("No API keys yet.")).toBeVisible();
  expect((await request.get(`/api/workspaces/${ws.id}`, { headers: { authorization: `Bearer ${key}` } })).status()).toBe(401);

  await page.emulateMedia({ colorScheme: "dark" });
  await page.getByRole("link", { name: "Board", exact: true }).click();
  await page.getByLabel("Project").selectOption({ label: "All projects" });
  await expect(column(page, "To do").getByRole("group", { name: "Unrelated" })).toBeVisible();
  await screenshot(page, "board-dark");
});
