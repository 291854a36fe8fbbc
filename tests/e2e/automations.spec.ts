import { expect, test } from "@playwright/test";
import { Api, column, openBoard, screenshot, signIn } from "./helpers";

/** A workspace that starts an unblocked task's agent, with a task in To do waiting on one in progress. */
async function blockedPair(api: Api, dependantTitle: string, blockerTitle: string) {
  const ws = await api.workspace();
  await api.call("PATCH", `/api/workspaces/${ws.id}`, { auto_start_unblocked: true });
  const dependant = await api.task(ws.id, { title: dependantTitle, status: "todo" });
  const blocker = await api.task(ws.id, { title: blockerTitle, status: "in_progress" });
  await api.call("POST", `/api/workspaces/${ws.id}/tasks/${dependant.id}/dependencies/${blocker.id}`);
  return { ws, dependant, blocker };
}

test("a blocker done starts its dependant's run, the card follows it, and Settings → Automations shows each reaction caught up", async ({
  page,
  request,
}) => {
  const api = await Api.asAdmin(request);
  const { ws, blocker } = await blockedPair(api, "Ship the release", "Write the release notes");

  await signIn(page, `/w/${ws.id}`);
  await openBoard(page, ws.id);
  // Another client finishes the blocker: start-unblocked starts the dependant's agent, and
  // board-automation moves its card to In progress; the live board shows both.
  await api.call("POST", `/api/workspaces/${ws.id}/tasks/${blocker.id}/move`, { column: "done" });
  await expect(column(page, "In progress").getByRole("group", { name: "Ship the release" })).toBeVisible();
  await screenshot(page, "automations-board");

  await page.goto(`/w/${ws.id}/settings`);
  const section = page.getByRole("region", { name: "Automations" });
  const items = section.getByRole("list", { name: "Automations" }).getByRole("listitem");
  await expect(items).toHaveCount(8);
  for (const name of [
    "board-automation",
    "start-unblocked",
    "github-after-run",
    "fix-conflicts",
    "start-assigned-agents",
    "start-mentioned-agents",
    "notify-people",
    "notify-runs",
  ]) {
    await expect(items.filter({ hasText: name })).toContainText("up to date");
  }
  await section.scrollIntoViewIfNeeded();
  await screenshot(page, "settings-automations");
});

test("a read of the dependant answered late, from before the automation moved it, does not put its card back", async ({
  page,
  request,
}) => {
  const api = await Api.asAdmin(request);
  const { ws, dependant, blocker } = await blockedPair(api, "Deploy", "Review");
  // What the server answered about the dependant while it was still in To do.
  const before = await api.call("GET", `/api/workspaces/${ws.id}/tasks/${dependant.id}`);

  await signIn(page, `/w/${ws.id}`);
  await openBoard(page, ws.id);
  // The blocker leaving for Done has the board read its dependant again (its "blocked by" count).
  // That read is slow: its answer, written before the automation moved the card, arrives after
  // the card's move has been applied from the live stream.
  const taskUrl = `**/api/workspaces/${ws.id}/tasks/${dependant.id}`;
  let deliver!: () => void;
  const held = new Promise<void>((resolve) => (deliver = resolve));
  let first = true;
  await page.route(taskUrl, async (route) => {
    if (route.request().method() !== "GET" || !first) return route.continue();
    first = false;
    await held;
    await route.fulfill({ json: before });
  });
  const lateAnswer = page.waitForResponse((response) => response.url().endsWith(`/tasks/${dependant.id}`));
  await api.call("POST", `/api/workspaces/${ws.id}/tasks/${blocker.id}/move`, { column: "done" });
  const card = column(page, "In progress").getByRole("group", { name: "Deploy" });
  await expect(card).toBeVisible();
  deliver();
  await lateAnswer;
  // Nothing more is coming to wait for: give the late answer time to be (wrongly) applied.
  await page.waitForTimeout(500);
  await expect(card).toBeVisible();
  await expect(column(page, "To do").getByRole("group", { name: "Deploy" })).toHaveCount(0);
  await page.unroute(taskUrl);
});

test("an automation seen behind is read again until it has caught up, well before the slow 15 s re-read", async ({ page, request }) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  // The first read answers as if taken while board-automation still had events to go: the
  // server's own answer, with that one count raised. Catching up records no event, so only
  // another read can show it.
  const reactionsUrl = `**/api/workspaces/${ws.id}/reactions`;
  let first = true;
  await page.route(reactionsUrl, async (route) => {
    if (!first) return route.continue();
    first = false;
    const response = await route.fetch();
    const reactions = (await response.json()) as { name: string; behind: number }[];
    await route.fulfill({
      response,
      json: reactions.map((reaction) => (reaction.name === "board-automation" ? { ...reaction, behind: 2 } : reaction)),
    });
  });
  await signIn(page, `/w/${ws.id}/settings`);
  const item = page
    .getByRole("region", { name: "Automations" })
    .getByRole("list", { name: "Automations" })
    .getByRole("listitem")
    .filter({ hasText: "board-automation" });
  await expect(item).toContainText("2 event(s) to go");
  await expect(item).toContainText("up to date", { timeout: 8_000 });
  await page.unroute(reactionsUrl);
});
