import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { Api, openBoard, signIn } from "./helpers";

// WCAG 2.0/2.1 A and AA rules (colour contrast, names, roles, labels) checked by axe-core on every
// page, in the light and the dark colour scheme, with cards that show every badge.

for (const colorScheme of ["light", "dark"] as const) {
  test(`pages pass axe's WCAG A and AA rules in the ${colorScheme} scheme`, async ({ page, request }) => {
    // Six scans by axe: past the default minute twice on 2026-11-29, on a slow machine.
    test.setTimeout(150_000);
    await page.emulateMedia({ colorScheme });
    await page.goto("/login");
    await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
    await expectAccessible(page, "login");

    const api = await Api.asAdmin(request);
    const workspace = await api.workspace(`A11y ${colorScheme}`);
    const project = await api.call<{ id: string }>(
      "POST",
      `/api/workspaces/${workspace.id}/projects`,
      { name: "Checkout", phases: ["Design", "Build"] },
      201,
    );
    const blocked = await api.task(workspace.id, {
      title: "Blocked task",
      status: "todo",
      priority: "p0",
      tags: ["web"],
      project_id: project.id,
      phase: 2,
    });
    await api.call(
      "POST",
      `/api/workspaces/${workspace.id}/questions`,
      { task_id: blocked.id, content: "Which colour?", options: ["Red", "Blue"] },
      201,
    );
    const conflicted = await api.task(workspace.id, {
      title: "Conflicted",
      status: "in_review",
      pr_url: "https://github.com/acme/app/pull/7",
    });
    await api.call("PATCH", `/api/workspaces/${workspace.id}/tasks/${conflicted.id}`, { has_merge_conflict: true });
    await api.task(workspace.id, { title: "Done already", status: "done", priority: "p4" });
    // A run whose profile needs a label no runner has: its card says it waits for a runner.
    const gpu = await api.call<{ id: string }>(
      "POST",
      `/api/workspaces/${workspace.id}/agents`,
      { name: "Needs a GPU", kind: "command", command: "true", labels: [`a11y-gpu-${colorScheme}`] },
      201,
    );
    const waiting = await api.task(workspace.id, { title: "Waits for a runner", status: "todo" });
    await api.call("POST", `/api/workspaces/${workspace.id}/tasks/${waiting.id}/runs`, { agent_id: gpu.id }, 202);

    // Settings → Runners with one runner of each look: one that reported no sandbox (in red), one never started.
    const unsandboxed = await api.call<{ token: string }>(
      "POST",
      "/api/runners",
      { name: `Unsandboxed ${colorScheme}`, labels: ["gpu"] },
      201,
    );
    await api.call("POST", "/api/runners", { name: `Never started ${colorScheme}`, capacity: 1 }, 201);
    const claim = await request.post("/api/runner/claim", {
      headers: { authorization: `Bearer ${unsandboxed.token}` },
      data: { version: "a11y", sandbox: "none", free: 0, wait_seconds: 0 },
    });
    expect(claim.status()).toBe(200);

    await signIn(page, `/w/${workspace.id}`);
    await openBoard(page, workspace.id);
    await expect(page.getByRole("button", { name: "Fix conflicts" }).first()).toBeVisible();
    await expect(page.getByTestId("card-waiting-for-runner")).toBeVisible();
    await expectAccessible(page, "board");

    await page.keyboard.press("q");
    await expect(page.getByRole("complementary", { name: "Questions" })).toBeVisible();
    await expectAccessible(page, "question panel");
    await page.keyboard.press("Escape");

    for (const section of ["projects", "schedules", "settings"]) {
      await page.goto(`/w/${workspace.id}/${section}`);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      if (section === "settings") await expect(page.getByTestId("runner-unsandboxed").first()).toBeVisible();
      await expectAccessible(page, section);
    }
  });
}

async function expectAccessible(page: Page, what: string) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const problems = results.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help}\n  ${violation.nodes
        .slice(0, 5)
        .map((node) => `${node.target.join(" ")} — ${node.failureSummary?.split("\n").slice(1).join(" ")}`)
        .join("\n  ")}`,
  );
  expect(problems, `${what}:\n${problems.join("\n")}`).toEqual([]);
}
