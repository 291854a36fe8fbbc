import { expect, test, type Page } from "@playwright/test";
import { Api, column, openBoard, screenshot, signIn } from "./helpers";

// Issue #38: at 390×844 no page scrolls sideways, and the top bar keeps Questions and the bell in
// reach, with the pages, the theme and Sign out folded into its menu.

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
const PAGES = ["Board", "Projects", "Schedules", "Settings"] as const;

async function expectNoSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  expect(widths.scroll, `page is ${widths.scroll} px wide in a ${widths.inner} px window`).toBeLessThanOrEqual(widths.inner);
}

const isPhone = (page: Page) => (page.viewportSize()?.width ?? 1440) < 768;

/** On a phone, opens the top bar's menu (the pages, the theme, Sign out live there). */
async function openMenu(page: Page) {
  if (!isPhone(page)) return;
  const menu = page.locator("header").getByRole("button", { name: "Menu" });
  if ((await menu.getAttribute("aria-expanded")) !== "true") await menu.click();
}

async function goTo(page: Page, name: string) {
  await openMenu(page);
  await page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name, exact: true }).click();
}

async function expectTopBarInReach(page: Page) {
  const header = page.locator("header").first();
  // The workspace's name stays readable: a long one is cut, but not to a letter or two.
  const name = await header.getByTestId("workspace-name").boundingBox();
  expect(name?.width ?? 0).toBeGreaterThanOrEqual(isPhone(page) ? 300 : 120);
  await expect(header.getByRole("button", { name: /^Questions, \d+ open$/ })).toBeInViewport();
  await expect(header.getByRole("button", { name: /^Notifications, \d+ unread$/ })).toBeInViewport();
  await openMenu(page);
  await expect(header.getByRole("button", { name: "Sign out" })).toBeInViewport();
  const nav = page.getByRole("navigation", { name: "Workspace" });
  for (const name of PAGES) await expect(nav.getByRole("link", { name, exact: true })).toBeInViewport();
  if (isPhone(page)) {
    // Escape closes the menu and gives focus back to its button.
    await page.keyboard.press("Escape");
    await expect(nav).toBeHidden();
    await expect(header.getByRole("button", { name: "Menu" })).toBeFocused();
  }
}

test("every page fits a 390 px phone and keeps the top bar in reach; desktop screenshots for comparison", async ({ page, request }) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace(`A workspace with a rather long name for a phone ${Date.now()}`);
  await api.task(ws.id, { title: "Fits on a phone", status: "todo" });
  await api.call("POST", `/api/workspaces/${ws.id}/projects`, { name: "Phone layout", description: "Every page at 390 px" }, 201);
  await signIn(page, `/w/${ws.id}`);

  for (const [label, size] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    await page.setViewportSize(size);
    for (const name of PAGES) {
      await goTo(page, name);
      await expect(page).toHaveURL(name === "Board" ? new RegExp(`/w/${ws.id}$`) : new RegExp(`/w/${ws.id}/${name.toLowerCase()}$`));
      // Choosing a page closes the menu; the current page is marked in it.
      if (isPhone(page)) await expect(page.getByRole("navigation", { name: "Workspace" })).toBeHidden();
      await openMenu(page);
      await expect(page.getByRole("navigation", { name: "Workspace" }).getByRole("link", { name, exact: true })).toHaveAttribute(
        "aria-current",
        "page",
      );
      if (name === "Settings" && isPhone(page)) await screenshot(page, "phone-menu-open");
      if (isPhone(page)) await page.keyboard.press("Escape");
      await expect(page.getByTitle(/^Live:/)).toBeAttached();
      if (name === "Projects") await expect(page.getByText("Phone layout")).toBeVisible();
      if (name === "Board") await expect(column(page, "To do").getByRole("group", { name: "Fits on a phone" })).toBeVisible();
      await expectNoSidewaysScroll(page);
      await expectTopBarInReach(page);
      await screenshot(page, `${label}-${name.toLowerCase()}`);
    }

    // The questions panel: a full-width sheet on a phone, the side panel on a desktop; closes either way.
    await openBoard(page, ws.id);
    const questionsButton = page.getByRole("button", { name: /^Questions, \d+ open$/ });
    await questionsButton.click();
    const panel = page.getByRole("complementary", { name: "Questions" });
    await expect(panel).toBeVisible();
    await expectNoSidewaysScroll(page);
    const box = await panel.boundingBox();
    if (label === "phone") {
      expect(box?.width).toBe(PHONE.width);
      await expect(panel.getByRole("button", { name: "Close questions" })).toBeFocused();
    } else expect(box?.width).toBeLessThan(DESKTOP.width / 2);
    await screenshot(page, `${label}-questions`);
    await panel.getByRole("button", { name: "Close questions" }).click();
    await expect(panel).toBeHidden();
    if (label === "phone") await expect(questionsButton).toBeFocused();

    // The task dialog fits the screen.
    await column(page, "To do").getByRole("group", { name: "Fits on a phone" }).click();
    const dialog = page.getByRole("dialog", { name: /^Task #\d+$/ });
    await expect(dialog.getByLabel("Title")).toHaveValue("Fits on a phone");
    const dialogBox = await dialog.boundingBox();
    expect((dialogBox?.x ?? -1) >= 0 && (dialogBox?.x ?? 0) + (dialogBox?.width ?? Infinity) <= size.width).toBe(true);
    await expectNoSidewaysScroll(page);
    await screenshot(page, `${label}-task-dialog`);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
  }
});

test("on a phone the board shows one column at a time, never scrolling the page sideways", async ({ page, request }) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  await api.task(ws.id, { title: "Shipped", status: "done" });
  await page.setViewportSize(PHONE);
  await signIn(page, `/w/${ws.id}`);
  await openBoard(page, ws.id);
  const done = column(page, "Done");
  await page.getByRole("tablist", { name: "Columns" }).getByRole("tab", { name: /^Done/ }).click();
  await expect(done).toBeInViewport();
  await expect(done.getByRole("group", { name: "Shipped" })).toBeVisible();
  // The column takes the screen's width, so one is read at a time.
  const box = await done.boundingBox();
  expect(box?.width).toBeGreaterThan(PHONE.width * 0.7);
  expect(await page.evaluate(() => window.scrollX)).toBe(0);
  await expectNoSidewaysScroll(page);
  await screenshot(page, "phone-board-done");
});

test("a phone shows the board one column at a time, switched by tabs with counts that are big enough to touch", async ({
  page,
  request,
}) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  await api.task(ws.id, { title: "Next up", status: "todo" });
  await api.task(ws.id, { title: "Shipped", status: "done" });
  await api.task(ws.id, { title: "Shipped too", status: "done" });
  await page.setViewportSize(PHONE);
  await signIn(page, `/w/${ws.id}`);
  await openBoard(page, ws.id);

  const tabs = page.getByRole("tablist", { name: "Columns" });
  await expect(tabs.getByRole("tab", { name: "To do 1" })).toHaveAttribute("aria-selected", "true");
  await expect(tabs.getByRole("tab", { name: "Done 2" })).toBeVisible();
  await expect(column(page, "To do").getByRole("group", { name: "Next up" })).toBeVisible();
  for (const hidden of ["Backlog", "In progress", "In review", "Done"]) await expect(column(page, hidden)).toBeHidden();
  await expectNoSidewaysScroll(page);
  for (const tab of await tabs.getByRole("tab").all()) expect((await tab.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  const menu = page.getByRole("button", { name: "Actions for Next up" });
  expect((await menu.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await page.screenshot({ path: "/tmp/shots/board/phone-one-column-390.png" });

  await tabs.getByRole("tab", { name: "Done 2" }).click();
  await expect(column(page, "Done").getByRole("group")).toHaveCount(2);
  await expect(column(page, "To do")).toBeHidden();
  // The arrow keys move along the tabs.
  await page.keyboard.press("ArrowLeft");
  await expect(tabs.getByRole("tab", { name: /^In review/ })).toBeFocused();
  await expect(column(page, "In review")).toBeVisible();
  await expectNoSidewaysScroll(page);

  // A desktop shows all five and no tabs.
  await page.setViewportSize(DESKTOP);
  await expect(tabs).toBeHidden();
  for (const name of ["Backlog", "To do", "In progress", "In review", "Done"]) await expect(column(page, name)).toBeVisible();
  await page.screenshot({ path: "/tmp/shots/board/desktop-all-columns-1440.png" });
});
