import path from "node:path";
import { expect, test } from "@playwright/test";
import { Api, bareRepository, column, openBoard, openRunDialog, screenshot, signIn } from "./helpers";

// The permission round trip in a real browser against the real runner: an ACP profile starts the
// fake agent (tests/fixtures/fake-acp-agent.mjs, the same SDK real adapters use), whose default turn
// writes a file, sends a plan, asks one permission with three options and reports usage.

const FAKE_AGENT = path.resolve("tests/fixtures/fake-acp-agent.mjs");

test("start an agent from the card, answer its permission question in the panel, watch the run finish", async ({ page, request }) => {
  test.setTimeout(120_000);
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  await api.call(
    "POST",
    `/api/workspaces/${ws.id}/agents`,
    { name: "Fake ACP", kind: "acp", command: process.execPath, args: [FAKE_AGENT], is_default: true },
    201,
  );
  await api.call("POST", `/api/workspaces/${ws.id}/agents`, { name: "Shell", kind: "command", command: "cat" }, 201);
  await api.call("PUT", `/api/workspaces/${ws.id}/repository`, { url: bareRepository(), default_branch: "main" });
  const task = await api.task(ws.id, { title: "Add a greeting", description: "Say hello in FAKE_AGENT.md.", status: "todo" });

  await signIn(page, `/w/${ws.id}`);
  await openBoard(page, ws.id);
  await expect(column(page, "To do").getByRole("group", { name: "Add a greeting" })).toBeVisible();
  // Wherever it is: the board automation moves it along with its run (docs/board-automation.md).
  const card = page.getByRole("group", { name: "Add a greeting" });
  await expect(card.getByTestId("task-number")).toHaveText(/#\d+/);

  // Run agent from the card's menu: the default profile is chosen, the instructions are the task's.
  const runDialog = await openRunDialog(page, card);
  await expect(runDialog.getByRole("combobox").locator("option:checked")).toHaveText("Fake ACP (default)");
  await expect(runDialog.getByLabel("Instructions")).toHaveValue("Add a greeting\n\nSay hello in FAKE_AGENT.md.");
  await runDialog.getByRole("button", { name: "Start run" }).click();

  // The live view opens; the agent streams, then waits for a permission.
  const view = page.getByRole("dialog", { name: /Add a greeting$/ });
  await expect(view.getByTestId("run-view")).toBeVisible();
  await expect(view.getByTestId("run-pending-question")).toBeVisible({ timeout: 60_000 });
  await expect(view.getByTestId("run-status-value")).toHaveText("waiting for input");
  await expect(view.getByTestId("run-plan")).toBeVisible();
  await expect(view.getByTestId("run-log")).toContainText("Looking at the task.");
  await screenshot(page, "run-view-waiting");

  // The board says where a person is needed.
  await page.keyboard.press("Escape");
  await expect(view).toHaveCount(0);
  await expect(card).toHaveAttribute("data-run-state", "waiting");
  await expect(column(page, "In progress").getByRole("group", { name: "Add a greeting" })).toBeVisible();
  await expect(card.getByTestId("run-status")).toContainText("Waiting for input");
  await expect(page.getByTestId("open-question-count")).toHaveText("1");
  await screenshot(page, "board-waiting-card");

  // Answer in the question panel: the agent resumes and finishes.
  await page.getByRole("button", { name: /^Questions/ }).click();
  const panel = page.getByRole("complementary", { name: "Questions" });
  const question = panel.getByRole("listitem").filter({ hasText: "Add a greeting" }).first();
  await question.getByRole("button", { name: "Allow once" }).click();
  await expect(page.getByTestId("open-question-count")).toHaveText("0");
  await expect(card.getByTestId("run-status")).toContainText("Run succeeded", { timeout: 60_000 });
  await expect(column(page, "In review").getByRole("group", { name: "Add a greeting" })).toBeVisible();

  // The run's history row opens the same view: message, plan, tool call, usage.
  await card.click();
  const details = page.getByRole("dialog", { name: /^Task #\d+$/ });
  // Per task: the usage the fake agent reported (1,000 in + 200 out), summed over the task's runs.
  await expect(details.getByTestId("task-usage")).toContainText("1,200 tokens");
  await details.getByRole("button", { name: "Open run 1" }).click();
  const finished = page.getByRole("dialog", { name: /^Run 1 · #\d+ Add a greeting$/ });
  await expect(finished.getByTestId("run-status-value")).toHaveText("succeeded");
  // Once every entry is read, the Log tab counts them alone ("Log (n)", not "Log (read of n)").
  await expect(finished.getByRole("tab", { name: /^Log \(\d+\)$/ })).toBeVisible();
  const log = finished.getByTestId("run-log");
  await expect(log).toContainText("Permission answered: allow-once.");
  await expect(log.getByTestId("log-tool-call").filter({ hasText: "Write FAKE_AGENT.md" })).toContainText("done");
  await expect(log.getByTestId("log-permission")).toContainText("Answered");
  await expect(finished.getByTestId("run-plan")).toContainText(/Plan · (\d+) of \1 done/);
  await expect(finished.getByTestId("run-usage")).not.toHaveText("not reported");
  await screenshot(page, "run-view-finished");

  // Review: the diff of the task's branch, a comment on a line, "Request changes" starts a follow-up.
  await finished.getByRole("tab", { name: "Diff" }).click();
  const diff = finished.getByTestId("diff-view");
  await expect(diff.getByRole("region", { name: "Changes to FAKE_AGENT.md" })).toBeVisible({ timeout: 30_000 });
  await diff.getByRole("button", { name: "Comment on line 1 of FAKE_AGENT.md" }).click();
  await diff.getByLabel("Comment on FAKE_AGENT.md:1").fill("Say hello to the reader too.");
  await diff.getByRole("button", { name: "Add comment" }).click();
  await expect(diff).toContainText("Say hello to the reader too.");
  await screenshot(page, "run-view-review");
  await diff.getByRole("button", { name: "Request changes (1)" }).click();
  const followUp = page.getByRole("dialog", { name: /^Follow-up: Run 1/ });
  await expect(followUp.getByTestId("run-log")).toContainText("FAKE_AGENT.md:1", { timeout: 30_000 });
  await followUp.getByRole("button", { name: "Cancel run" }).click();
  await expect(followUp.getByTestId("run-status-value")).toHaveText("cancelled", { timeout: 30_000 });

  const runs = await api.call<{ status: string; agent_name: string | null; files_changed: number | null }[]>(
    "GET",
    `/api/workspaces/${ws.id}/tasks/${task.id}/runs`,
  );
  expect(runs.map((run) => run.status)).toEqual(["cancelled", "succeeded"]);
  expect(runs[1]).toMatchObject({ agent_name: "Fake ACP", files_changed: 1 });
});

test("Settings lists agent profiles and the repository section", async ({ page, request }) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  await signIn(page, `/w/${ws.id}/settings`);
  const agents = page.getByRole("region", { name: "Agents" });
  await expect(agents.getByText("No profiles yet")).toBeVisible();
  await agents.getByRole("button", { name: "Add Claude Code" }).click();
  const profile = agents.getByTestId("agent-profile").filter({ hasText: "Claude Code" });
  await expect(profile).toBeVisible();
  await agents.getByRole("button", { name: "Add Codex" }).click();
  const codex = agents.getByTestId("agent-profile").filter({ hasText: "Codex" });
  await codex.getByRole("button", { name: "Make default" }).click();
  await expect(codex).toContainText("default");
  await expect(profile.getByRole("button", { name: "Make default" })).toBeVisible();

  await codex.getByRole("button", { name: "Edit Codex" }).click();
  const form = agents.getByRole("form", { name: "Edit Codex" });
  await form.getByLabel("Name", { exact: true }).fill("Codex (team key)");
  await form.getByLabel(/^Model/).fill("gpt-5.4");
  await form.getByLabel("Added to the agent's system prompt").fill("Answer in English.");
  // The preset's vendor host is listed; the sandbox lets the agent reach the hosts listed here.
  const hosts = form.getByLabel(/^Hosts it may reach/);
  await expect(hosts).toHaveValue("api.openai.com");
  await hosts.fill("api.openai.com, gateway.example.com:8443");
  await expect(form.getByLabel(/^Network/)).toHaveValue("allowlist");
  // Only runners with every label take its runs (docs/runners.md).
  await form.getByLabel(/^Runner labels it needs/).fill("docker, gpu");
  await form.getByRole("button", { name: "Save profile" }).click();
  const renamed = agents.getByTestId("agent-profile").filter({ hasText: "Codex (team key)" });
  await expect(renamed).toBeVisible();
  await expect(renamed).toContainText("Runs on runners labelled docker, gpu");
  // A profile added from a preset keeps it (so the server starts its own installation), and what a person set.
  const saved = await api.call<
    { name: string; preset: string | null; model: string | null; system_prompt: string | null; network_allow: string[]; labels: string[] }[]
  >("GET", `/api/workspaces/${ws.id}/agents`);
  expect(saved.find((agent) => agent.name === "Codex (team key)")).toMatchObject({
    preset: "codex",
    model: "gpt-5.4",
    system_prompt: "Answer in English.",
    network_allow: ["api.openai.com", "gateway.example.com:8443"],
    network: "allowlist",
    labels: ["docker", "gpu"],
  });

  // The workspace's cap on its concurrent runs: empty is none.
  const runs = page.getByRole("region", { name: "Runs", exact: true });
  const limit = runs.getByLabel(/^At most this many runs at once/);
  await expect(limit).toHaveValue("");
  await limit.fill("3");
  await runs.getByRole("button", { name: "Save" }).click();
  await expect
    .poll(async () => (await api.call<{ max_concurrent_runs: number | null }>("GET", `/api/workspaces/${ws.id}`)).max_concurrent_runs)
    .toBe(3);

  const repository = page.getByRole("region", { name: "Repository" });
  await expect(repository.getByLabel("Git URL or path on the server")).toBeVisible();
  await screenshot(page, "settings-agents");

  await profile.getByRole("button", { name: "Delete Claude Code" }).click();
  await expect(agents.getByTestId("agent-profile").filter({ hasText: "Claude Code" })).toHaveCount(0);
});
