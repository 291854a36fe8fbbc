import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { UNSHOWN_POPUPS } from "./chromium-switches";

// The browser the tests run is launched as playwright.config.ts says: none of the features
// Playwright turns off is back on (Chromium obeys only the last --disable-features), and a new
// context preloads no address-bar popup.
test("the tests' Chromium keeps Playwright's switches and preloads no address-bar popup", async ({ browser, page }) => {
  const cdp = await browser.newBrowserCDPSession();
  const { processInfo } = await cdp.send("SystemInfo.getProcessInfo");
  const browserProcess = processInfo.find((info) => info.type === "browser");
  expect(browserProcess).toBeDefined();
  const args = fs.readFileSync(`/proc/${browserProcess!.id}/cmdline`, "utf8").split("\0");
  const lists = args.filter((arg) => arg.startsWith("--disable-features=")).map((arg) => arg.split("=")[1].split(","));
  expect(lists.length).toBeGreaterThan(1);
  const obeyed = lists.at(-1)!;
  for (const feature of new Set(lists.flat())) expect(obeyed, `--disable-features lost ${feature}`).toContain(feature);
  for (const feature of UNSHOWN_POPUPS) expect(obeyed).toContain(feature);

  await page.goto("/login");
  await expect(page.getByLabel("Username")).toBeVisible();
  const { targetInfos } = await cdp.send("Target.getTargets");
  expect(targetInfos.map((target) => target.url)).toContain(page.url());
  expect(targetInfos.filter((target) => target.url.startsWith("chrome://omnibox-popup"))).toEqual([]);
});
