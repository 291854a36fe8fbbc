import { expect, test } from "@playwright/test";
import { Api, screens, signIn } from "./helpers";

// People (docs/api.md, "Invitations"; docs/SECURITY.md, "Roles"): an owner invites a viewer by link
// in Settings → Members; a new person opens it in a browser of their own, makes an account, sees the
// board, and a write is refused in words. Also Settings → Users and the people picker. Screenshots of
// each new screen at 1440×900 and 390×844.

test("an invited viewer joins from a second browser, sees a read-only board, and a write is refused in words", async ({
  page,
  browser,
  request,
}) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace(`Team ${Date.now()}`);
  await api.task(ws.id, { title: "Plan the launch", status: "todo" });

  await signIn(page, `/w/${ws.id}/settings`);
  const members = page.getByRole("region", { name: "Members" });
  await members.getByLabel("Role of the person invited").selectOption("viewer");
  await members.getByLabel("Email (optional)").fill("vera@example.com");
  await members.getByRole("button", { name: "Create invitation link" }).click();
  const link = await members.getByLabel("Invitation link").inputValue();
  expect(link).toMatch(/\/invite\/tbi_/);
  await expect(members.getByRole("button", { name: "Copy" })).toBeVisible();
  await expect(members.getByText("vera@example.com", { exact: true })).toBeVisible();
  await screens(page, "settings-members-invitations", members.getByText("Invite by link"));
  // The invite page writes its expiry the way the rest of the board writes dates.
  const expires = (await members
    .getByText(/^expires /)
    .first()
    .textContent())!.replace(/^expires /, "");

  const other = await browser.newContext({ baseURL: new URL(link).origin });
  try {
    const newcomer = await other.newPage();
    await newcomer.goto(new URL(link).pathname);
    await expect(newcomer.getByRole("heading", { name: `Join ${ws.name}` })).toBeVisible();
    await expect(newcomer.getByText("You are invited as")).toContainText("viewer");
    await expect(newcomer.getByText("You are invited as")).toContainText(`expires on ${expires}.`);
    await screens(newcomer, "invite-page");
    const username = `vera_${Date.now()}`;
    await newcomer.getByLabel("Username").fill(username);
    await newcomer.getByLabel("Your name (optional)").fill("Vera Viewer");
    await newcomer.getByLabel("Password (8 or more characters)").fill("vera-password-1");
    await newcomer.getByRole("button", { name: `Create account and join ${ws.name}` }).click();

    await newcomer.waitForURL(`**/w/${ws.id}`);
    await expect(newcomer.getByRole("region", { name: "To do", exact: true }).getByText("Plan the launch")).toBeVisible();
    await expect(newcomer.getByTitle(/^You can read this workspace but not change it/)).toBeVisible();
    // The screens offer a viewer no change: no quick add, a read-only task, no answer box.
    await expect(newcomer.getByLabel("Add a task to Backlog")).toHaveCount(0);
    await newcomer.getByRole("region", { name: "To do", exact: true }).getByText("Plan the launch").click();
    const task = newcomer.getByRole("dialog", { name: /^Task #\d+$/ });
    await expect(task.getByLabel("Title")).toBeDisabled();
    await expect(task.getByRole("button", { name: "Save" })).toHaveCount(0);
    await screens(newcomer, "board-viewer-read-only");
    await newcomer.keyboard.press("Escape");
    // And the server refuses a write all the same, in words (the browser's own session, by hand).
    const refused = await newcomer.evaluate(async (workspaceId) => {
      const response = await fetch(`/api/workspaces/${workspaceId}/tasks`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ title: "Sneaky change" }),
      });
      return { status: response.status, body: await response.json() };
    }, ws.id);
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toContain("Viewers can read this workspace but not change it");
    expect(await api.column(ws.id, "backlog")).not.toContain("Sneaky change");

    // The link is spent: opening it again says so in words.
    await newcomer.goto(new URL(link).pathname);
    await expect(newcomer.getByRole("alert").filter({ hasText: "already used" })).toBeVisible();
    await screens(newcomer, "invite-used");
  } finally {
    await other.close();
  }

  await page.reload();
  await expect(members.getByText("Vera Viewer")).toBeVisible();
  await expect(members.getByText("vera@example.com", { exact: true })).toHaveCount(0);
});

test("an administrator creates and disables users in Settings → Users; an owner adds one with the picker", async ({
  page,
  browser,
  request,
}) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  const username = `sam_${Date.now()}`;

  await signIn(page, `/w/${ws.id}/settings`);
  const users = page.getByRole("region", { name: "Users" });
  const form = users.getByRole("form", { name: "Create a user" });
  await form.getByLabel("Username").fill(username);
  await form.getByLabel("Display name (optional)").fill("Sam Searchable");
  await form.getByLabel("Password").fill("sam-password-1");
  await form.getByRole("button", { name: "Create user" }).click();
  await expect(users.getByText("Sam Searchable")).toBeVisible();
  await screens(page, "settings-users", users);

  const members = page.getByRole("region", { name: "Members" });
  await members.getByLabel("Role of the person added").selectOption("member");
  const picker = members.getByRole("combobox", { name: "Find a person to add" });
  await picker.fill("searchable");
  await expect(members.getByRole("option", { name: /Sam Searchable/ })).toBeVisible();
  await screens(page, "settings-people-picker", members);
  await picker.press("Enter");
  await expect(members.getByRole("listitem").filter({ hasText: "Sam Searchable" })).toContainText("member");

  // The new member names themselves, in a browser of their own: the administrator's name is left
  // alone, since the specs running beside this one on the shared server look for "admin".
  const samsBrowser = await browser.newContext();
  const sams = await samsBrowser.newPage();
  await signIn(sams, `/w/${ws.id}/settings`, { username, password: "sam-password-1" });
  const profile = sams.getByRole("region", { name: "Your profile" });
  await profile.getByLabel(/^Display name/).fill("Sam Sharp");
  await profile.getByRole("button", { name: "Save" }).click();
  await expect(sams.getByRole("region", { name: "Members" }).getByText("Sam Sharp")).toBeVisible();
  await screens(sams, "settings-profile", profile);
  await samsBrowser.close();

  // The row changes at once (optimistic); the sign-in below must come after the server's answer.
  const disabled = page.waitForResponse(
    (response) => response.request().method() === "PATCH" && /\/api\/users\/[^/]+$/.test(response.url()),
  );
  await users.getByRole("button", { name: `Disable ${username}` }).click();
  expect((await disabled).status()).toBe(200);
  await expect(users.getByRole("button", { name: `Enable ${username}` })).toBeVisible();
  const login = await request.post("/api/auth/login", { data: { username, password: "sam-password-1" } });
  expect(login.status()).toBe(403);
});
