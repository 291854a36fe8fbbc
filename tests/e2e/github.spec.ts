import { execFileSync } from "node:child_process";
import { createHmac, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { E2E_GITHUB_WEBHOOK_SECRET } from "../../scripts/lib/e2e-admin.mjs";
import { Api, column, openBoard, screenshot, signIn } from "./helpers";

// Signed GitHub deliveries to the Playwright server (its GitHub App is the fake's): the board
// hears of a pull request live, and Settings shows the delivery, its failed follow-up (an installation
// the fake does not know) and, after an uninstall, why the workspace is disconnected; a conflicted pull
// request turns its card red and Fix conflicts pushes the merge to the fake's git remote; Open pull
// request pushes an agent's branch and links the new pull request. Playwright's loader
// cannot import @octokit/webhooks-examples (a JSON module), so the payloads carry GitHub's fields the
// board reads; the API tests (tests/api/github-webhooks.test.ts) use the full examples.

test("a pull request delivery shows on its card live, and Settings shows the delivery and the disconnect reason", async ({
  page,
  request,
}) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  const repo = `acme/e2e-${Date.now()}`;
  await api.call("PUT", `/api/workspaces/${ws.id}/codehost`, { installation_id: 4711, repo });
  const task = await api.task(ws.id, { title: "Linked by webhook", status: "in_review" });
  await signIn(page, `/w/${ws.id}`);
  await openBoard(page, ws.id);
  const card = column(page, "In review").getByRole("group", { name: "Linked by webhook" });
  await expect(card.getByTestId("pr-state")).toHaveCount(0);

  const pr = {
    action: "opened",
    number: 77,
    installation: { id: 4711 },
    repository: { full_name: repo, default_branch: "main" },
    sender: { login: "octocat" },
    pull_request: {
      number: 77,
      html_url: `https://github.com/${repo}/pull/77`,
      state: "open",
      draft: true,
      merged: false,
      title: "Linked by webhook",
      body: `Task ${task.id}`,
      head: { ref: "feature", sha: "0123456789abcdef0123456789abcdef01234567" },
      base: { ref: "main" },
    },
  };
  await deliver(request, "pull_request", pr);
  await expect(card.getByRole("link", { name: "PR #77" })).toBeVisible();
  await expect(card.getByTestId("pr-state")).toHaveText("draft");

  await page.goto(`/w/${ws.id}/settings`);
  await expect(page.getByTestId("codehost-last-delivery")).toContainText("pull_request.opened");
  // Installation 4711 is not one of the fake GitHub's: asking it about mergeability fails, visibly.
  await expect(page.getByTestId("codehost-last-delivery")).toContainText("failed:");
  // The automations of a connected workspace, all off until an owner switches them on.
  const automations = page.getByRole("group", { name: "Automations" });
  await expect(automations.getByRole("checkbox", { name: /Fix conflicts automatically/ })).not.toBeChecked();
  await screenshot(page, "github-settings-automations");

  await deliver(request, "installation", { action: "deleted", installation: { id: 4711 }, sender: { login: "octocat" } });
  await page.reload();
  await expect(page.getByTestId("codehost-disconnect-reason")).toHaveText(
    "Disconnected by GitHub: The GitHub App was uninstalled by octocat",
  );
});

async function deliver(request: APIRequestContext, event: string, payload: unknown) {
  const body = JSON.stringify(payload);
  const response = await request.post("/api/webhooks/github", {
    headers: {
      "content-type": "application/json",
      "x-github-event": event,
      "x-github-delivery": randomUUID(),
      "x-hub-signature-256": `sha256=${createHmac("sha256", E2E_GITHUB_WEBHOOK_SECRET).update(body).digest("hex")}`,
    },
    data: body,
  });
  expect(response.status()).toBe(202);
}

// The Playwright server's GitHub is the fake (tests/fixtures/fake-github-process.ts, started by
// scripts/e2e-server.mjs); the test arranges it through its control API and a real bare repository.
const FAKE_CONTROL = `http://127.0.0.1:${Number(process.env.E2E_PORT || 3210) + 1000}`;

async function fakeGithub<T = any>(request: APIRequestContext, route: string, data: unknown): Promise<T> {
  const response = await request.post(`${FAKE_CONTROL}${route}`, { data });
  expect(response.ok(), `${route}: ${await response.text()}`).toBeTruthy();
  return (await response.json()) as T;
}

test("Connect GitHub installs the App on GitHub, comes back through the callback and connects the picked repository", async ({
  page,
  request,
}) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  const installation = 4800 + Math.floor(Math.random() * 100_000);
  const repo = `acme/connect-${installation}`;
  await fakeGithub(request, "/installation", { id: installation, account: "acme", repositories: [repo, `${repo}-docs`] });
  await signIn(page, `/w/${ws.id}/settings`);
  // The fake's installation page installs this one and sends the browser to the board's callback
  // with an authorization code, as GitHub does when the App requests user authorization.
  const callbackUrl = `${new URL(page.url()).origin}/api/codehost/github/callback`;
  await fakeGithub(request, "/install-next", { callback_url: callbackUrl, installation_id: installation });
  const section = page.getByRole("region", { name: "Code host" });
  await section.getByRole("button", { name: "Connect GitHub" }).click();
  await page.waitForURL(`**/w/${ws.id}/settings?github=installed`);
  await section.getByLabel("Repository").selectOption(repo);
  await screenshot(page, "github-connect-pick-repository");
  await section.getByRole("button", { name: "Use this repository" }).click();
  await expect(page.getByTestId("codehost-settings-status")).toHaveText(`Connected to ${repo} (installation ${installation})`);
});

/** Commits `files` on `branch` (made from main when new) of the bare repository, as someone pushing. */
function pushCommit(bare: string, branch: string, files: Record<string, string>) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "e2e-push-"));
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=Octo", "-c", "user.email=octo@example.com", ...args], { cwd: work, stdio: "pipe" })
      .toString()
      .trim();
  git("clone", "--quiet", bare, ".");
  const exists = git("ls-remote", "--heads", "origin", branch) !== "";
  git("switch", "--quiet", ...(exists ? [branch] : ["-c", branch]));
  for (const [file, content] of Object.entries(files)) fs.writeFileSync(path.join(work, file), content);
  git("add", "-A");
  git("commit", "--quiet", "-m", `Change ${Object.keys(files).join(", ")}`);
  git("push", "--quiet", "origin", branch);
  const sha = git("rev-parse", "HEAD");
  fs.rmSync(work, { recursive: true, force: true });
  return sha;
}

test("a conflicted pull request turns its card red live; Fix conflicts merges, pushes to GitHub and turns it back", async ({
  page,
  request,
}) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  const installation = 4800 + Math.floor(Math.random() * 100_000);
  const repo = `acme/fix-${installation}`;
  await fakeGithub(request, "/installation", { id: installation, account: "acme", repositories: [repo] });
  const { bare } = await fakeGithub<{ bare: string }>(request, "/repository", { repo });
  // The PR's branch, and then a commit on main it does not have yet: GitHub calls the PR conflicted.
  const before = pushCommit(bare, "tb/fix-me", { "feature.txt": "the feature\n" });
  pushCommit(bare, "main", { "main.txt": "moved on\n" });
  await api.call("PUT", `/api/workspaces/${ws.id}/codehost`, { installation_id: installation, repo });
  const task = await api.task(ws.id, { title: "Fix me", status: "in_review" });
  await api.call("PATCH", `/api/workspaces/${ws.id}/tasks/${task.id}`, { branch: "tb/fix-me" });
  const pull = await fakeGithub<{ number: number; head_sha: string }>(request, "/pull", {
    repo,
    pull: { head: "tb/fix-me", head_sha: before, title: "Fix me", body: `Task ${task.id}`, mergeability: [[false, "dirty"]] },
  });

  await signIn(page, `/w/${ws.id}`);
  await openBoard(page, ws.id);
  const card = column(page, "In review").getByRole("group", { name: "Fix me" });
  await expect(card.getByTestId("conflict-badge")).toHaveCount(0);

  await deliver(request, "pull_request", {
    action: "opened",
    number: pull.number,
    installation: { id: installation },
    repository: { full_name: repo, default_branch: "main" },
    sender: { login: "octocat" },
    pull_request: {
      number: pull.number,
      html_url: `https://github.example/${repo}/pull/${pull.number}`,
      state: "open",
      draft: false,
      merged: false,
      title: "Fix me",
      body: `Task ${task.id}`,
      // In the repository itself, not a fork: a branch the board may push (pr_head_branch).
      head: { ref: "tb/fix-me", sha: before, repo: { full_name: repo } },
      base: { ref: "main" },
    },
  });
  // Linked at once; red when the board has asked GitHub for the mergeability, after the answer.
  await expect(card.getByRole("link", { name: `PR #${pull.number}` })).toBeVisible();
  await expect(card.getByTestId("conflict-badge")).toHaveText("Merge conflict");
  await screenshot(page, "github-conflicted-card");

  await card.getByRole("button", { name: "Fix conflicts" }).click();
  // git merges main into the branch without conflicts here, so the run pushes and succeeds without the agent.
  await expect(card.getByTestId("conflict-badge")).toHaveCount(0, { timeout: 30_000 });
  await page.keyboard.press("Escape");
  await expect(card.getByRole("link", { name: `PR #${pull.number}` })).toBeVisible();
  const after = await fakeGithub<{ sha: string | null }>(request, "/head", { repo, branch: "tb/fix-me" });
  expect(after.sha).not.toBe(before);
  expect(after.sha).toMatch(/^[0-9a-f]{40}$/);
  await screenshot(page, "github-conflict-fixed");
});

test("Open pull request on a task whose last run succeeded with changes pushes its branch and links the new pull request", async ({
  page,
  request,
}) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  const installation = 4800 + Math.floor(Math.random() * 100_000);
  const repo = `acme/open-${installation}`;
  await fakeGithub(request, "/installation", { id: installation, account: "acme", repositories: [repo] });
  const { bare } = await fakeGithub<{ bare: string }>(request, "/repository", { repo });
  await api.call("PUT", `/api/workspaces/${ws.id}/codehost`, { installation_id: installation, repo });
  // Board automation would already move the task to In review after its run (its branch has changes);
  // here the move is the pull request's.
  await api.call("PATCH", `/api/workspaces/${ws.id}`, { auto_move_tasks: false });
  const task = await api.task(ws.id, { title: "Login page", status: "in_progress" });
  // Work on the task's own branch, which the run picks up (the demo agent itself changes nothing).
  const branch = `tb/${task.number}-login-page`;
  pushCommit(bare, branch, { "login.txt": "the login page\n" });
  await api.call("PATCH", `/api/workspaces/${ws.id}/tasks/${task.id}`, { branch });
  const started = await api.call<{ id: string }>("POST", `/api/workspaces/${ws.id}/tasks/${task.id}/runs`, {}, 202);
  await expect
    .poll(async () => (await api.call<{ status: string }>("GET", `/api/workspaces/${ws.id}/executions/${started.id}`)).status, {
      timeout: 30_000,
    })
    .toBe("succeeded");

  await signIn(page, `/w/${ws.id}`);
  await openBoard(page, ws.id);
  await column(page, "In progress").getByRole("group", { name: "Login page" }).click();
  const dialog = page.getByRole("dialog");
  const button = dialog.getByRole("button", { name: "Open pull request" });
  await expect(button).toBeVisible();
  await screenshot(page, "github-open-pull-request");
  await button.click();
  await expect(dialog.getByRole("button", { name: "Open pull request" })).toHaveCount(0);
  await page.keyboard.press("Escape");
  const card = column(page, "In review").getByRole("group", { name: "Login page" });
  await expect(card.getByRole("link", { name: /^PR #\d+$/ })).toBeVisible();
  await expect(card.getByTestId("pr-state")).toHaveText("open");
});
