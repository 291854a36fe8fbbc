import { findChromium } from "./find-chromium.mjs";

// The browser side of the benchmarks that measure in a real browser (bench:ui, bench:run-view,
// bench:agent): the same headless Chromium and the same signed-in 1440×900 page for each.

export async function launchBrowser() {
  const executablePath = await findChromium();
  if (!executablePath) throw new Error("No Chromium found: set CHROMIUM_PATH or apt-get install chromium");
  const { chromium } = await import("@playwright/test");
  return chromium.launch({ executablePath, args: ["--no-sandbox", "--disable-gpu"] });
}

/** A new page signed in through the login form, as a person would be. */
export async function signedInPage(browser, url, admin) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${url}/login?callbackUrl=/`);
  await page.getByLabel("Username").fill(admin.username);
  await page.getByLabel("Password").fill(admin.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((next) => !next.pathname.startsWith("/login"));
  return page;
}
