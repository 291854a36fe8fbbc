import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { spawnRunner } from "../helpers/runner-process";
import { Api, openBoard, openRunDialog, screenshot, signIn } from "./helpers";

// Settings → Runners in a real browser with a real runner process: an administrator adds a runner,
// copies the command the page shows, starts the runner with it (as `npm run runner` does), sees it
// come online, runs an agent that only that runner may take, and sees its name in the run view;
// a run whose profile asks for a label no runner has says it waits for a runner, and why; deleting
// the runner in Settings stops its token, and the runner process stops.
//
// The runner is a dedicated one that only this spec's workspace chose (docs/runners.md, "Dedicated
// runners"), so it takes no other spec's runs and the spec runs beside the others. As a shared
// runner it took the runs of the spec beside it, without their environment (docs/testing.md), and
// ran alone after every other spec: about 30 s of one worker at the end of each browser pass.

const FIXTURE_AGENT = path.resolve("tests/fixtures/agent.mjs");

test("add a runner in Settings, start it with the command shown, see it online and running an agent", async ({ page, request }) => {
  test.setTimeout(120_000);
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  const name = `e2e-runner-${Date.now()}`;
  const label = `e2e-${Date.now()}`;
  let runner: ChildProcess | null = null;
  const output: string[] = [];
  try {
    await signIn(page, `/w/${ws.id}/settings`);
    const section = page.getByRole("region", { name: "Runners" });
    await expect(section).toBeVisible();

    // Add it: name, capacity 1, a label only this test's profile asks for.
    const form = section.getByRole("form", { name: "Add a runner" });
    await expect(form.getByLabel("Capacity")).toHaveValue("2");
    await form.getByLabel("Name").fill(name);
    await form.getByLabel("Capacity").fill("1");
    await form.getByLabel("Labels (optional)").fill(` ${label} , linux`);
    await form.getByRole("checkbox", { name: /Dedicated/ }).check();
    await form.getByRole("button", { name: "Add runner" }).click();

    // The token, once, inside the command that starts the runner for this board.
    const created = section.getByTestId("runner-created");
    await expect(created).toContainText(`Runner “${name}” added`);
    const token = await created.getByLabel("Runner token").inputValue();
    expect(token.length).toBeGreaterThan(20);
    const command = (await created.getByTestId("runner-command").textContent()) ?? "";
    const origin = new URL(page.url()).origin;
    expect(command).toBe(`npm run runner -- --url ${origin} --token ${token} --capacity 1`);
    await expect(created.getByRole("button", { name: "Copy command" })).toBeVisible();
    await created.screenshot({ path: "tests/artifacts/screens/settings-runner-created.png" });

    // Listed before it ever called: offline, never seen, its labels and capacity.
    const row = section.getByRole("listitem", { name: `Runner ${name}` });
    await expect(row.getByTestId("runner-status")).toHaveText("offline");
    await expect(row).toContainText("never: not started yet");
    await expect(row.getByTestId("runner-load")).toHaveText("0 of 1");
    await expect(row.getByText(label, { exact: true })).toBeVisible();
    await expect(row.getByText("linux", { exact: true })).toBeVisible();
    // This workspace, and no other, takes its jobs from it.
    const added = await api.runner(name);
    expect(added.dedicated).toBe(true);
    await api.call("PUT", `/api/workspaces/${ws.id}/runners`, { runner_ids: [added.id] }, 200);

    // Start it with what the command says (its arguments after `npm run runner --`).
    const args = command.split(" ");
    const url = args[args.indexOf("--url") + 1];
    runner = spawnRunner(url, args[args.indexOf("--token") + 1], {}, ["ignore", "pipe", "pipe"], args.slice(args.indexOf("--capacity")));
    runner.stdout!.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    runner.stderr!.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    // It says the capacity it was added with, as the server holds it to.
    await expect.poll(() => output.join(""), { timeout: 30_000 }).toMatch(/runner .*capacity 1,/);

    // The list is polled: it comes online without a reload.
    await expect(row.getByTestId("runner-status"), `runner output: ${output.join("")}`).toHaveText("online", { timeout: 60_000 });
    await expect(row).toContainText(/Last seen:\s*(just now|\d+ s ago)/);
    await expect(row).toContainText(/Version:\s*\d+\.\d+/);
    await created.getByRole("button", { name: "Done" }).click();
    await expect(created).toHaveCount(0);
    // Its row, not the section: the section lists every other spec's runners too, and is taller
    // than the page's scrolling area, below whose edge a screenshot of it came out blank.
    await row.screenshot({ path: "tests/artifacts/screens/settings-runners.png" });

    // Two profiles: one requires the runner's label, so only this runner may take its runs; the
    // other a label no runner has, so its run waits and says why.
    const agent = { kind: "command", command: process.execPath, args: [FIXTURE_AGENT] };
    await api.call(
      "POST",
      `/api/workspaces/${ws.id}/agents`,
      { ...agent, name: "On the e2e runner", is_default: true, labels: [label] },
      201,
    );
    await api.call("POST", `/api/workspaces/${ws.id}/agents`, { ...agent, name: "Needs a GPU", labels: [`gpu-${label}`] }, 201);
    await api.task(ws.id, { title: "succeed on a runner", status: "todo" });
    await api.task(ws.id, { title: "succeed on a GPU", status: "todo" });
    await openBoard(page, ws.id);
    const startRun = async (title: string, profile?: string) => {
      const runDialog = await openRunDialog(page, page.getByRole("group", { name: title }));
      if (profile) await runDialog.getByRole("combobox").selectOption({ label: profile });
      await runDialog.getByRole("button", { name: "Start run" }).click();
      return page.getByRole("dialog", { name: new RegExp(`${title}$`) });
    };

    const view = await startRun("succeed on a runner");
    await expect(view.getByTestId("run-status-value")).toHaveText("succeeded", { timeout: 60_000 });
    await expect(view.getByTestId("run-runner")).toHaveText(`Runner: ${name}`);
    await expect(view.getByTestId("run-log")).toContainText("working on succeed on a runner");
    await screenshot(page, "run-view-runner");
    await page.keyboard.press("Escape");

    // No online runner has the label: the run view and the card say so, with the reason.
    const waiting = await startRun("succeed on a GPU", "Needs a GPU");
    const note = waiting.getByTestId("run-waiting-for-runner");
    await expect(note).toHaveText(`Waiting for a runner with the labels gpu-${label}: no online runner has them all`);
    await expect(note).toHaveAttribute("data-reason", "no_matching_labels");
    await expect(waiting.getByTestId("run-status-value")).toHaveText("queued");
    // No agent yet: nothing has a duration, and nothing "went quiet" (AGENT_SILENCE_SECONDS is 3 here).
    await expect(waiting.getByTestId("run-duration")).toHaveText("not started");
    await page.waitForTimeout(5_000);
    await expect(waiting.getByTestId("run-quiet")).toHaveCount(0);
    await screenshot(page, "run-view-waiting-for-runner");
    await page.keyboard.press("Escape");
    const gpuCard = page.getByRole("group", { name: "succeed on a GPU" });
    await expect(gpuCard.getByTestId("run-status")).toContainText("Queued");
    await expect(gpuCard.getByTestId("card-waiting-for-runner")).toHaveText(
      `Waiting for a runner with the labels gpu-${label}: no online runner has them all`,
    );
    await gpuCard.screenshot({ path: "tests/artifacts/screens/card-waiting-for-runner.png" });
    // Cancelled, so no later test finds it queued.
    await gpuCard.click();
    const details = page.getByRole("dialog", { name: /^Task #\d+$/ });
    await details.getByRole("button", { name: "Open run 1" }).click();
    await page.getByRole("button", { name: "Cancel run" }).click();
    await expect(page.getByTestId("run-status-value")).toHaveText("cancelled");
    await expect(page.getByTestId("run-waiting-for-runner")).toHaveCount(0);

    // Delete it, after a confirmation: its token stops working and the runner process stops.
    await page.goto(`/w/${ws.id}/settings`);
    await row.getByRole("button", { name: `Delete runner ${name}` }).click();
    const confirm = row.getByRole("group", { name: `Confirm: Delete runner ${name}` });
    await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect(row.getByRole("button", { name: `Delete runner ${name}` })).toBeFocused();
    await row.getByRole("button", { name: `Delete runner ${name}` }).click();
    await confirm.getByRole("button", { name: `Delete ${name}` }).click();
    await expect(row).toHaveCount(0);
    const exit = await new Promise<number | null>((resolve) => {
      if (runner!.exitCode !== null) resolve(runner!.exitCode);
      else runner!.once("exit", (code) => resolve(code));
    });
    expect(exit, output.join("")).toBe(1);
  } finally {
    if (runner && runner.exitCode === null) runner.kill("SIGKILL");
    // What the runner printed is the first thing to read when a run on it never ends.
    await test.info().attach("runner output", { body: output.join(""), contentType: "text/plain" });
  }
});
