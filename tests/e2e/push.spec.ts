import { expect, test } from "@playwright/test";
import { Api, screens, signIn } from "./helpers";

// Browser push's parts in a real browser (docs/notifications.md, "Browser push"): the installable
// app's manifest and icons, the service worker registered on every page, and Settings →
// Notifications' control for push on this device, in words for each state. Messages themselves are
// tested against a local push service in tests/api/push.test.ts (a headless browser has no push service).

test("the manifest is served with its icons", async ({ request }) => {
  const manifest = await request.get("/manifest.webmanifest");
  expect(manifest.status()).toBe(200);
  const body = await manifest.json();
  expect(body).toMatchObject({ name: "Taskboard", display: "standalone", start_url: "/" });
  expect(body.icons.map((icon: { sizes: string }) => icon.sizes)).toEqual(["192x192", "512x512", "512x512"]);
  for (const icon of body.icons as { src: string }[]) {
    const png = await request.get(icon.src);
    expect([png.status(), png.headers()["content-type"]]).toEqual([200, "image/png"]);
    expect((await png.body()).subarray(1, 4).toString("ascii")).toBe("PNG");
  }
});

test("the service worker registers, and Settings says what push can do on this device", async ({ page, request }) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  await signIn(page, `/w/${ws.id}/settings`);
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  expect(new URL(scope).pathname).toBe("/");
  expect(await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r?.active?.scriptURL))).toMatch(/\/sw\.js$/);

  const device = page.getByTestId("push-device");
  await expect(device.getByRole("status")).toHaveText("Push is off for this device.");
  const enable = device.getByRole("button", { name: "Enable push on this device" });
  await expect(enable).toBeVisible();
  expect((await enable.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await screens(page, "push-settings", device);

  // Notifications blocked in the browser: said in words, no button that cannot work.
  await page.addInitScript(() => Object.defineProperty(Notification, "permission", { get: () => "denied" }));
  await page.reload();
  await expect(device.getByRole("status")).toHaveText(/Notifications are blocked for this site/);
  await expect(enable).toHaveCount(0);
  await screens(page, "push-settings-denied", device);
});

test("a browser without push support is told so", async ({ page, request }) => {
  const api = await Api.asAdmin(request);
  const ws = await api.workspace();
  await page.addInitScript(() => {
    delete (window as { PushManager?: unknown }).PushManager;
  });
  await signIn(page, `/w/${ws.id}/settings`);
  await expect(page.getByTestId("push-device").getByRole("status")).toHaveText(/This browser has no push support/);
});
