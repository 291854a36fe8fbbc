import { expect, test } from "@playwright/test";
import { adminToken, Api, screens, signIn } from "./helpers";

// Settings → Slack (owners) and the email address in Settings → Profile, by which Slack finds a
// person (docs/slack.md). The browser tests' server has no Slack app, and the section says so. What
// happens in Slack itself is tests/api/slack.test.ts's, against a fake Slack.

test("an owner chooses the Slack channel, a wrong id is refused in words, and a person saves the email Slack knows them by", async ({
  page,
  request,
}) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace(`Slack ${Date.now()}`);
  await signIn(page, `/w/${ws.id}/settings`);

  const slack = page.getByRole("region", { name: "Slack" });
  await expect(slack.getByRole("status")).toHaveText(/This server has no Slack app: set SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET/);
  const channel = slack.getByLabel(/Channel id for agents' questions/);
  await channel.fill("general");
  await slack.getByRole("button", { name: "Save" }).click();
  await expect(slack.getByText(/^Not saved: a channel id looks like C0123ABCD, not a name/)).toBeVisible();
  await expect(channel).toHaveValue("general");
  await channel.fill("C0TEAM42");
  await slack.getByRole("button", { name: "Save" }).click();
  await expect(slack.getByText(/Not saved/)).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("region", { name: "Slack" }).getByLabel(/Channel id/)).toHaveValue("C0TEAM42");
  await screens(page, "settings-slack", page.getByRole("region", { name: "Slack" }));

  const profile = page.getByRole("region", { name: /Your profile/ });
  const email = profile.getByLabel("Email address");
  await email.fill("Admin@Example.com");
  await profile.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(/^Saved: you are shown/)).toBeVisible();
  await page.reload();
  await expect(page.getByRole("region", { name: /Your profile/ }).getByLabel("Email address")).toHaveValue("admin@example.com");
  await screens(page, "settings-profile-email", page.getByRole("region", { name: /Your profile/ }));
  // The administrator is every spec's: their address goes back to none.
  const cleared = await request.patch("/api/auth/me", {
    headers: { authorization: `Bearer ${await adminToken(request)}` },
    data: { email: null },
  });
  expect(cleared.status()).toBe(200);
});
