import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { Api, openBoard, scratchDir, screenshot, signIn } from "./helpers";

// The repository section of Settings reports the workspace's worktree disk use in one line, after a
// run has made a task's worktree from a bare repository on disk. A diff with a file too large to
// show says so in its place.

test("Settings shows the worktrees' disk use after a run", async ({ page, request }) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  const remote = bareRemote();
  await api.call("PUT", `/api/workspaces/${ws.id}/repository`, { url: remote }, 200);
  const task = await api.task(ws.id, { title: "Worktree for the screenshot", status: "todo" });
  const started = await api.call<{ id: string }>("POST", `/api/workspaces/${ws.id}/tasks/${task.id}/runs`, {}, 202);
  await expect
    .poll(async () => (await api.call<{ status: string }>("GET", `/api/workspaces/${ws.id}/executions/${started.id}`)).status, {
      timeout: 30_000,
    })
    .toBe("succeeded");

  await signIn(page, `/w/${ws.id}/settings`);
  const repository = page.getByRole("region", { name: "Repository" });
  const line = repository.getByTestId("worktree-disk-use");
  await expect(line).toContainText(/^1 task worktree uses \d+(\.\d)? (bytes|KB|MB)/);
  await expect(line).toContainText("removed 7 days after it is done (its branch stays)");
  await screenshot(page, "settings-worktree-disk-use");
});

test("the run's Diff tab shows a file too large to show as its size, and the other files in full", async ({ page, request }) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  const big = 2 * 1024 * 1024;
  const remote = bareRemote((work, git) => {
    git(work, "checkout", "-q", "-b", "feature/huge");
    fs.writeFileSync(path.join(work, "bundle.min.js"), "x".repeat(big));
    fs.writeFileSync(path.join(work, "README.md"), "# Demo\n\nNow with a bundle.\n");
    git(work, "add", "-A");
    git(work, "commit", "-q", "-m", "bundle");
    git(work, "push", "-q", "origin", "feature/huge");
  });
  await api.call("PUT", `/api/workspaces/${ws.id}/repository`, { url: remote }, 200);
  const task = await api.task(ws.id, { title: "Review a huge bundle", status: "todo" });
  await api.call("PATCH", `/api/workspaces/${ws.id}/tasks/${task.id}`, { branch: "feature/huge" }, 200);
  const started = await api.call<{ id: string }>("POST", `/api/workspaces/${ws.id}/tasks/${task.id}/runs`, {}, 202);
  await expect
    .poll(async () => (await api.call<{ status: string }>("GET", `/api/workspaces/${ws.id}/executions/${started.id}`)).status, {
      timeout: 30_000,
    })
    .toBe("succeeded");

  await signIn(page, `/w/${ws.id}`);
  await openBoard(page, ws.id);
  await page.getByRole("group", { name: "Review a huge bundle" }).click();
  await page
    .getByRole("dialog", { name: /^Task #\d+$/ })
    .getByRole("button", { name: "Open run 1" })
    .click();
  const run = page.getByRole("dialog", { name: /^Run 1 · #\d+ Review a huge bundle$/ });
  await run.getByRole("tab", { name: "Diff" }).click();
  const diff = run.getByTestId("diff-view");
  await expect(diff.getByRole("region", { name: "Changes to bundle.min.js" })).toContainText(`File too large to show: ${big} bytes`, {
    timeout: 30_000,
  });
  await expect(diff.getByRole("region", { name: "Changes to README.md" })).toContainText("Now with a bundle.");
  await screenshot(page, "diff-file-too-large");
});

function bareRemote(more?: (work: string, git: (cwd: string, ...args: string[]) => void) => void): string {
  const root = scratchDir("remote-");
  const work = path.join(root, "work");
  const remote = path.join(root, "remote.git");
  const git = (cwd: string, ...args: string[]) =>
    execFileSync("git", ["-c", "user.name=e2e", "-c", "user.email=e2e@e2e", ...args], { cwd });
  execFileSync("git", ["init", "-q", "--bare", "-b", "main", remote]);
  execFileSync("git", ["init", "-q", "-b", "main", work]);
  fs.writeFileSync(path.join(work, "README.md"), "# Demo\n\nA repository for the worktree screenshot.\n");
  git(work, "add", "-A");
  git(work, "commit", "-q", "-m", "seed");
  git(work, "remote", "add", "origin", remote);
  git(work, "push", "-q", "origin", "main");
  more?.(work, git);
  return remote;
}
