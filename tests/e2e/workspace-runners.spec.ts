import { expect, test } from "@playwright/test";
import { Api, screenshot, signIn } from "./helpers";

// Settings → Runners, the workspace's choice (docs/runners.md "Runners per workspace"): the server's
// RUNNERS_REQUIRE_SANDBOX in words, each runner with whether it gets jobs, and an owner limiting
// the workspace to some runners; the choice is what the API then says. Two runners registered
// over the API, one of them reporting no sandbox (it claims with no free slot, so it takes nothing).

test("an owner chooses which runners take the workspace's jobs, and sees the server's sandbox rule", async ({ page, request }) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  const stamp = Date.now();
  const kept = await api.call<{ id: string; name: string }>("POST", "/api/runners", { name: `kept-${stamp}` }, 201);
  const bare = await api.call<{ id: string; token: string; name: string }>("POST", "/api/runners", { name: `bare-${stamp}` }, 201);
  const claim = await request.post("/api/runner/claim", {
    headers: { authorization: `Bearer ${bare.token}` },
    data: { version: "e2e", sandbox: "none", free: 0, wait_seconds: 0 },
  });
  expect((await claim.json()).refused).toMatch(/requires one/);
  try {
    await signIn(page, `/w/${ws.id}/settings`);
    const section = page.getByRole("region", { name: "Who runs this workspace's agents" });
    await expect(section.getByTestId("runners-require-sandbox")).toContainText("gives no jobs to a runner without a sandbox");
    const bareRow = section.getByTestId("workspace-runner").filter({ hasText: bare.name });
    await expect(bareRow).toContainText("unsandboxed");
    await expect(bareRow.getByTestId("workspace-runner-refused")).toHaveText(
      "Gets no jobs: it runs agents without a sandbox, and this server requires one.",
    );
    // The administrators' list says it too.
    const adminRow = page.getByRole("listitem", { name: `Runner ${bare.name}` });
    await expect(adminRow.getByTestId("runner-jobs-refused")).toContainText("RUNNERS_REQUIRE_SANDBOX");

    // Every runner by default; an owner limits it to the kept one.
    const everyRunner = section.getByRole("radio", { name: /Every shared runner of this server/ });
    await expect(everyRunner).toBeChecked();
    await section.getByRole("radio", { name: "Only the runners checked below" }).check();
    await bareRow.getByRole("checkbox").uncheck();
    await section.getByRole("button", { name: "Save" }).click();
    await expect(section.getByRole("button", { name: "Save" })).toBeEnabled();
    await expect
      .poll(async () => (await api.call<{ runner_ids: string[] | null }>("GET", `/api/workspaces/${ws.id}/runners`)).runner_ids)
      .not.toBeNull();
    const saved = await api.call<{ runner_ids: string[] }>("GET", `/api/workspaces/${ws.id}/runners`);
    expect(saved.runner_ids).toContain(kept.id);
    expect(saved.runner_ids).not.toContain(bare.id);

    // After a reload the page shows the choice it saved.
    await page.reload();
    await expect(section.getByRole("radio", { name: "Only the runners checked below" })).toBeChecked();
    await expect(bareRow.getByRole("checkbox")).not.toBeChecked();
    await expect(section.getByTestId("workspace-runner").filter({ hasText: kept.name }).getByRole("checkbox")).toBeChecked();
    for (const [width, height] of [
      [1440, 900],
      [390, 844],
    ]) {
      await page.setViewportSize({ width, height });
      await page.reload();
      await expect(bareRow.getByTestId("workspace-runner-refused")).toBeVisible();
      // At every width the section fits: the page never scrolls sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await section.scrollIntoViewIfNeeded();
      await screenshot(page, `settings-workspace-runners-${width}`);
    }
  } finally {
    await api.call("DELETE", `/api/runners/${kept.id}`, undefined, 204);
    await api.call("DELETE", `/api/runners/${bare.id}`, undefined, 204);
  }
});

test("an administrator adds a dedicated runner, and only a workspace that checks it gets it", async ({ page, request }) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  const name = `team-box-${Date.now()}`;
  await signIn(page, `/w/${ws.id}/settings`);
  const form = page.getByRole("form", { name: "Add a runner" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Capacity").fill("1");
  await form.getByRole("checkbox", { name: /Dedicated/ }).check();
  await form.getByRole("button", { name: "Add runner" }).click();
  await expect(page.getByTestId("runner-created")).toContainText(name);
  const adminRow = page.getByRole("listitem", { name: `Runner ${name}` });
  await expect(adminRow).toContainText("only the workspaces that chose it");
  const added = await api.runner(name);
  expect(added.dedicated).toBe(true);
  try {
    // The workspace takes every shared runner: the dedicated one is listed, tagged, and not among them.
    const section = page.getByRole("region", { name: "Who runs this workspace's agents" });
    await page.reload();
    const row = section.getByTestId("workspace-runner").filter({ hasText: name });
    await expect(row).toContainText("dedicated: only workspaces that choose it");
    await expect(row.getByRole("checkbox")).not.toBeChecked();
    await section.getByRole("radio", { name: "Only the runners checked below" }).check();
    await row.getByRole("checkbox").check();
    await section.getByRole("button", { name: "Save" }).click();
    await expect
      .poll(async () => (await api.call<{ runner_ids: string[] | null }>("GET", `/api/workspaces/${ws.id}/runners`)).runner_ids)
      .toContain(added.id);
    await page.reload();
    await expect(row.getByRole("checkbox")).toBeChecked();
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, "settings-dedicated-runner");
  } finally {
    await api.call("DELETE", `/api/runners/${added.id}`, undefined, 204);
  }
});
