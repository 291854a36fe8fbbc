import path from "node:path";
import { expect, test, type Route } from "@playwright/test";
import { Api, column, openBoard, openRunDialog, signIn } from "./helpers";

// The run view's record comes by three roads: the answer of the POST that started the run, its own
// reads, and the event stream. A read answered after the run's end event, from before that end,
// once put "running" back for good (seen as a flaky quick run in these tests): the later state must
// win (lib/client/executions.ts). Here the view's read is held until the end has been shown, and
// every read after it is held too, so nothing but the cache's rule can keep the end on screen.

const FIXTURE_AGENT = path.resolve("tests/fixtures/agent.mjs");

test("a run view's read that answers after the run's end, from before it, does not bring back running", async ({ page, request }) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  const agent = { kind: "command", command: process.execPath, args: [FIXTURE_AGENT], is_default: true };
  await api.call("POST", `/api/workspaces/${ws.id}/agents`, { ...agent, name: "Holder" }, 201);
  const title = "Hold until cancelled";
  await api.task(ws.id, { title, status: "todo" });

  // The view's reads of the execution record (not its log): the first is answered by the server at
  // once and handed to the page only when the test says; those after it are never answered.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held!: (executionId: string) => void;
  const heldRead = new Promise<string>((resolve) => (held = resolve));
  let reads = 0;
  await page.route(
    (url) => new RegExp(`/api/workspaces/${ws.id}/executions/[^/]+$`).test(url.pathname),
    async (route: Route) => {
      if (reads++ > 0) return; // Never answered: no later read may set the view right.
      const stale = await route.fetch();
      const record = await stale.json();
      expect(record.status).toBe("running");
      held(record.id);
      await released;
      await route.fulfill({ response: stale });
    },
  );

  await signIn(page, `/w/${ws.id}`);
  await openBoard(page, ws.id);
  const runDialog = await openRunDialog(page, column(page, "To do").getByRole("group", { name: title }));
  await runDialog.getByLabel("Instructions").fill("hold 120");
  await runDialog.getByRole("button", { name: "Start run" }).click();
  const view = page.getByRole("dialog", { name: new RegExp(`${title}$`) });
  const status = view.getByTestId("run-status-value");
  await expect(status).toHaveText("running");

  // The view's read is under way and held. The run ends meanwhile; its event reaches the view.
  const executionId = await heldRead;
  await api.call("POST", `/api/workspaces/${ws.id}/executions/${executionId}/cancel`);
  await expect(status).toHaveText("cancelled", { timeout: 30_000 });

  // Now the held read answers "running", from before the end.
  const answered = page.waitForResponse((response) => response.url().endsWith(`/executions/${executionId}`));
  release();
  await answered;
  // Past the answer's parsing and a render: it would have shown by now.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await page.waitForTimeout(300);
  await expect(status).toHaveText("cancelled", { timeout: 1_000 });
  expect(reads).toBeGreaterThanOrEqual(1);
});
