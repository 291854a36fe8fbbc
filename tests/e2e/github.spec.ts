import { createHmac, randomUUID } from "node:crypto";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { E2E_GITHUB_WEBHOOK_SECRET } from "../../scripts/lib/e2e-admin.mjs";
import { Api, column, openBoard, signIn } from "./helpers";

// Signed GitHub deliveries to the Playwright server (which has a webhook secret but no App): the board
// hears of a pull request live, and Settings shows the delivery, its failed follow-up (no App to ask
// about mergeability) and, after an uninstall, why the workspace is disconnected. Playwright's loader
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
  await expect(page.getByTestId("codehost-last-delivery")).toContainText("failed: The GitHub App is not configured");

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
