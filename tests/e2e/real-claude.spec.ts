import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startScriptedModel, type ScriptedModel } from "../fixtures/scripted-model";
import { Api, bareRepository, column, openBoard, openRunDialog, screenshot, signIn } from "./helpers";
import { agentWorkdir } from "../../lib/platform/runner-config";

// The real Claude Code in a real browser: a profile made from the shipped preset, a run started from
// the card, its Write permission answered on the board, the file in the diff. The model is the
// scripted Anthropic fake on E2E_PORT + 2000, where scripts/e2e-server.mjs points ANTHROPIC_BASE_URL.

let model: ScriptedModel;

test.beforeAll(async () => {
  model = await startScriptedModel(Number(process.env.E2E_PORT || 3210) + 2000);
});

test.afterAll(async () => {
  await model?.close();
});

test("Claude Code from its preset: permission asked on the board, allowed in the browser, the file in the diff", async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  const presets = await api.call<{ preset: string; name: string; command: string; args: string[]; env_passthrough: string[] }[]>(
    "GET",
    `/api/workspaces/${ws.id}/agents/presets`,
  );
  const claude = presets.find((preset) => preset.preset === "claude-code")!;
  await api.call(
    "POST",
    `/api/workspaces/${ws.id}/agents`,
    {
      name: "Claude Code",
      kind: "acp",
      command: claude.command,
      args: claude.args,
      env_passthrough: claude.env_passthrough,
      preset: "claude-code",
      is_default: true,
    },
    201,
  );
  await api.call("PUT", `/api/workspaces/${ws.id}/repository`, { url: bareRepository(), default_branch: "main" });
  const marker = `[script:e2e-claude-${Date.now()}]`;
  const task = await api.task(ws.id, { title: "Greet the reader", description: `Write hello.txt. ${marker}`, status: "todo" });
  const file = path.join(agentWorkdir(ws.id, task.id), "hello.txt");
  model.script(marker.slice("[script:".length, -1), [
    {
      text: "Planning the greeting.",
      tools: [
        { name: "TodoWrite", input: { todos: [{ content: "Write hello.txt", status: "in_progress", activeForm: "Writing hello.txt" }] } },
      ],
    },
    { tools: [{ name: "Write", input: { file_path: file, content: "Hello, reader!\n" } }] },
    { text: "hello.txt now greets the reader." },
  ]);

  await signIn(page, `/w/${ws.id}`);
  await openBoard(page, ws.id);
  const card = column(page, "To do").getByRole("group", { name: "Greet the reader" });
  const runDialog = await openRunDialog(page, card);
  await expect(runDialog.getByRole("combobox").locator("option:checked")).toHaveText("Claude Code (default)");
  await runDialog.getByRole("button", { name: "Start run" }).click();

  // Claude Code's Write asks permission: the question shows its own option names.
  const view = page.getByRole("dialog", { name: /Greet the reader$/ });
  const pending = view.getByTestId("run-pending-question");
  await expect(pending).toBeVisible({ timeout: 120_000 });
  await expect(pending).toContainText("The agent asks permission: Write hello.txt");
  await expect(pending.getByRole("button")).toHaveText(["Always Allow", "Allow", "Reject"]);
  await expect(view.getByTestId("run-status-value")).toHaveText("waiting for input");
  await expect(view.getByTestId("run-plan")).toContainText("Write hello.txt");
  await screenshot(page, "real-claude-permission");

  // A person allows it in the browser; the run goes on and finishes.
  await pending.getByRole("button", { name: "Allow", exact: true }).click();
  await expect(view.getByTestId("run-status-value")).toHaveText("succeeded", { timeout: 120_000 });
  expect(fs.readFileSync(file, "utf8")).toBe("Hello, reader!\n");
  const log = view.getByTestId("run-log");
  await expect(log).toContainText("hello.txt now greets the reader.");
  await expect(log.getByTestId("log-tool-call").filter({ hasText: "hello.txt" }).first()).toBeVisible();
  await expect(view.getByTestId("run-usage")).not.toHaveText("not reported");
  await expect(view.getByTestId("run-model")).not.toHaveText("");
  await screenshot(page, "real-claude-finished");

  await view.getByRole("tab", { name: "Diff" }).click();
  await expect(view.getByTestId("diff-view").getByRole("region", { name: "Changes to hello.txt" })).toBeVisible({ timeout: 30_000 });
  await expect(view.getByTestId("diff-view")).toContainText("Hello, reader!");
  await screenshot(page, "real-claude-diff");
});

test("a run whose agent went quiet says so on its card and in its run view", async ({ page, request }) => {
  test.setTimeout(180_000);
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  const claude = (
    await api.call<{ preset: string; command: string; args: string[]; env_passthrough: string[] }[]>(
      "GET",
      `/api/workspaces/${ws.id}/agents/presets`,
    )
  ).find((preset) => preset.preset === "claude-code")!;
  const profile = await api.call<{ id: string }>(
    "POST",
    `/api/workspaces/${ws.id}/agents`,
    {
      name: "Claude Code",
      kind: "acp",
      command: claude.command,
      args: claude.args,
      env_passthrough: claude.env_passthrough,
      preset: "claude-code",
    },
    201,
  );
  const name = `e2e-quiet-${Date.now()}`;
  // The model holds its answer: the agent sends nothing while it waits (AGENT_SILENCE_SECONDS is 3 here).
  model.script(name, [{ text: "Finally.", delayMs: 120_000 }]);
  const task = await api.task(ws.id, { title: "Think quietly", status: "todo" });
  const run = await api.call<{ id: string }>(
    "POST",
    `/api/workspaces/${ws.id}/tasks/${task.id}/runs`,
    { instructions: `Think. [script:${name}]`, agent_id: profile.id },
    202,
  );

  await signIn(page, `/w/${ws.id}`);
  await openBoard(page, ws.id);
  // The run's start moved the card to In progress (board automation, docs/board-automation.md).
  const card = column(page, "In progress").getByRole("group", { name: "Think quietly" });
  await expect(card.getByTestId("card-run-quiet")).toContainText(/no output for \d+ s/, { timeout: 90_000 });
  await screenshot(page, "real-claude-quiet-card");
  await card.click();
  await page
    .getByRole("dialog", { name: /^Task #\d+$/ })
    .getByRole("button", { name: "Open run 1" })
    .click();
  const view = page.getByRole("dialog", { name: /^Run 1 · #\d+ Think quietly$/ });
  await expect(view.getByTestId("run-quiet")).toContainText(/No output for \d+ s/);
  await screenshot(page, "real-claude-quiet-run-view");
  await api.call("POST", `/api/workspaces/${ws.id}/executions/${run.id}/cancel`);
  await expect(card.getByTestId("run-status")).toContainText("Run cancelled", { timeout: 30_000 });
});
