import { expect, test } from "@playwright/test";
import { startGitHttpServer } from "../fixtures/git-http-server";
import { Api, screenshot, signIn } from "./helpers";

// Settings → Repository with a remote that demands an access token (git over HTTP on loopback; the
// e2e server allows loopback remotes): the token is typed once, the page then says only that one is
// stored and since when, and removing it makes the remote refuse, in words.

const TOKEN = "e2e-token-7c1d9a";

test("connect a private remote with an access token that is never shown again", async ({ page, request }) => {
  const git = await startGitHttpServer({ token: TOKEN });
  try {
    const url = git.addRepository("private");
    const api = await Api.asAdmin(request);
    const ws = await api.workspace();
    await signIn(page, `/w/${ws.id}/settings`);
    const repository = page.getByRole("region", { name: "Repository" });
    await repository.getByLabel("Git URL or path on the server").fill(url);
    await repository.getByRole("combobox", { name: "Credential" }).selectOption("access_token");
    await repository.getByLabel("Access token", { exact: true }).fill(TOKEN);
    await repository.getByRole("button", { name: "Connect repository" }).click();

    await expect(repository.getByTestId("repository-status")).toContainText(url);
    await expect(repository.getByTestId("repository-credential")).toContainText("An access token (user x-access-token) is stored");
    await page.reload();
    await expect(repository.getByTestId("repository-credential")).toBeVisible();
    expect(await page.content()).not.toContain(TOKEN);
    await screenshot(page, "settings-repository-credential");

    await repository.getByRole("button", { name: "Remove credential" }).click();
    await expect(repository.getByText("could not read the repository: authentication failed")).toBeVisible();
    await expect(repository.getByTestId("repository-credential")).toBeVisible();
  } finally {
    await git.stop();
  }
});
