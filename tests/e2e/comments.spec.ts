import { expect, test, type Page } from "@playwright/test";
import { Api, openBoard, screenshot, signIn } from "./helpers";

// Task comments (issue #37) in a browser: Markdown rendered safely (a link opens in a new tab
// without the opener; a <script> is text, never run), Ctrl+Enter sends, a draft survives a reload,
// edit in place, a comment mentioning an agent starts its run, and the dialog's timeline merges the
// activity and the comments, newest last.

const card = (page: Page, title: string) => page.getByRole("group", { name: title, exact: true });

test("comment with Markdown, edit it, mention an agent; the timeline at desktop and phone widths", async ({ page, request }) => {
  test.setTimeout(120_000);
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  await api.call("POST", `/api/workspaces/${ws.id}/agents`, { name: "Night Owl", kind: "command", command: "true" }, 201);
  const task = await api.task(ws.id, { title: "Write the release notes", status: "todo" });
  page.on("dialog", (dialog) => void dialog.dismiss());
  await page.addInitScript(() => {
    (window as unknown as { scriptRan: boolean }).scriptRan = false;
  });

  await signIn(page, `/w/${ws.id}`);
  await openBoard(page, ws.id);
  await card(page, "Write the release notes").click();
  const dialog = page.getByRole("dialog", { name: `Task #${task.number}` });
  const box = dialog.getByLabel("Comment", { exact: true });

  // A draft survives a reload (the open task is in the address, so the dialog opens again).
  await box.fill("Half a thought");
  await page.reload();
  await expect(box).toHaveValue("Half a thought");

  const text =
    "See **the docs** at [the guide](https://example.com/guide) <script>window.scriptRan = true</script> [bad](javascript:alert(1))";
  await box.fill(text);
  await box.press("Control+Enter");
  const timeline = dialog.getByRole("list", { name: "Task timeline, newest last" });
  const comment = timeline.getByRole("listitem", { name: "Comment by admin" }).last();
  await expect(comment.locator("strong")).toHaveText("the docs");
  const link = comment.getByRole("link", { name: "the guide" });
  await expect(link).toHaveAttribute("href", "https://example.com/guide");
  await expect(link).toHaveAttribute("target", "_blank");
  await expect(link).toHaveAttribute("rel", "noopener noreferrer");
  await expect(comment).toContainText("<script>window.scriptRan = true</script>");
  expect(await comment.locator("script").count()).toBe(0);
  expect(await comment.getByRole("link", { name: "bad" }).getAttribute("href")).not.toMatch(/javascript/i);
  expect(await page.evaluate(() => (window as unknown as { scriptRan: boolean }).scriptRan)).toBe(false);
  await expect(box).toHaveValue("");
  // The activity comes first (created), the comment last.
  await expect(timeline.getByRole("listitem").first()).toContainText("Created the task");

  // Edit in place.
  await comment.getByRole("button", { name: "Edit your comment" }).click();
  await comment.getByLabel("Edit comment").fill("Release notes: *draft one*");
  await comment.getByRole("button", { name: "Save comment" }).click();
  await expect(comment.locator("em")).toHaveText("draft one");
  await expect(comment).toContainText("(edited)");

  // Mentioning the agent by its dashed name starts its run.
  await box.fill("@night-owl please write the first draft");
  await dialog.getByRole("button", { name: "Comment", exact: true }).click();
  await expect(timeline.getByRole("listitem", { name: "Comment by admin" })).toHaveCount(2);
  await expect
    .poll(async () =>
      (await api.call<{ trigger: string }[]>("GET", `/api/workspaces/${ws.id}/tasks/${task.id}/runs`)).map((r) => r.trigger),
    )
    .toEqual(["mentioned"]);

  // Another person's comment arrives live.
  await api.call("POST", `/api/workspaces/${ws.id}/tasks/${task.id}/comments`, { body: "Sent from a script" }, 201);
  await expect(timeline).toContainText("Sent from a script");

  await page.setViewportSize({ width: 1440, height: 900 });
  await box.scrollIntoViewIfNeeded();
  await screenshot(page, "comments-timeline-1440");
  await page.setViewportSize({ width: 390, height: 844 });
  await box.scrollIntoViewIfNeeded();
  await screenshot(page, "comments-timeline-390");
});
