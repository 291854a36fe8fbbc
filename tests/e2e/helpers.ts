import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { E2E_ADMIN, e2eScratchRoot } from "../../scripts/lib/e2e-admin.mjs";

// Set-up through the same HTTP API scripts use (Bearer token), and sign-in through the page.

export const ADMIN = E2E_ADMIN;

let cachedToken: string | undefined;

export async function adminToken(request: APIRequestContext): Promise<string> {
  if (cachedToken) return cachedToken;
  const response = await request.post("/api/auth/login", { data: ADMIN });
  expect(response.status()).toBe(200);
  cachedToken = (await response.json()).access_token as string;
  return cachedToken;
}

export class Api {
  constructor(
    private readonly request: APIRequestContext,
    private readonly token: string,
  ) {}

  static async asAdmin(request: APIRequestContext) {
    return new Api(request, await adminToken(request));
  }

  async call<T = any>(method: string, path: string, data?: unknown, expected?: number): Promise<T> {
    // Prefer: a write answers once its reactions have run (docs/api.md), so a test's next step sees them.
    const headers = { authorization: `Bearer ${this.token}`, prefer: "wait=reactions" };
    const send = () => this.request.fetch(path, { method, headers, data });
    // A kept-alive connection that the server closed as it sat idle (Node's 5 s keep-alive timeout)
    // fails the next request with ECONNRESET before the server read it: send it once more.
    const response = await send().catch((error: Error) => {
      if (/ECONNRESET|socket hang up/.test(error.message)) return send();
      throw error;
    });
    const text = await response.text();
    if (expected !== undefined) expect(response.status(), `${method} ${path}: ${text}`).toBe(expected);
    else expect(response.ok(), `${method} ${path}: ${response.status()} ${text}`).toBeTruthy();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  workspace(name = `E2E ${Date.now()}-${Math.floor(Math.random() * 1000)}`) {
    return this.call<{ id: string; name: string }>("POST", "/api/workspaces", { name }, 201);
  }

  task(workspaceId: string, body: Record<string, unknown>) {
    return this.call<{ id: string; number: number; title: string; position: number; status: string }>(
      "POST",
      `/api/workspaces/${workspaceId}/tasks`,
      body,
      201,
    );
  }

  /** The runner added under `name` (Settings → Runners), as GET /api/runners lists it. */
  async runner(name: string) {
    const runners = await this.call<{ id: string; name: string; dedicated: boolean }[]>("GET", "/api/runners");
    const found = runners.find((runner) => runner.name === name);
    expect(found, `runner ${name} in GET /api/runners`).toBeDefined();
    return found!;
  }

  async column(workspaceId: string, column: string, limit = 100): Promise<string[]> {
    const page = await this.call<{ items: { title: string }[] }>(
      "GET",
      `/api/workspaces/${workspaceId}/board/column/${column}?limit=${limit}`,
    );
    return page.items.map((task) => task.title);
  }
}

export async function signIn(page: Page, next = "/", who: { username: string; password: string } = ADMIN) {
  await page.goto(`/login?callbackUrl=${encodeURIComponent(next)}`);
  await page.getByLabel("Username").fill(who.username);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
}

export function column(page: Page, title: string) {
  return page.getByRole("region", { name: title, exact: true });
}

/** The card titles of a column, top to bottom, as shown. */
export async function cardTitles(page: Page, title: string): Promise<string[]> {
  return column(page, title)
    .locator("[data-task-id]")
    .evaluateAll((cards) => cards.map((card) => card.getAttribute("aria-label") ?? ""));
}

/** A card's ⋯ menu → "Run agent…": the Run dialog, before anything in it is chosen. */
export async function openRunDialog(page: Page, card: Locator) {
  const title = await card.getAttribute("aria-label");
  await card.getByRole("button", { name: `Actions for ${title}` }).click();
  await page.getByRole("menuitem", { name: "Run agent…" }).click();
  return page.getByRole("dialog", { name: /^Run agent on #\d+$/ });
}

export async function openBoard(page: Page, workspaceId: string) {
  if (new URL(page.url()).pathname !== `/w/${workspaceId}`) await page.goto(`/w/${workspaceId}`);
  await expect(page.getByTitle(/^Live:/)).toBeVisible();
}

export async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: `tests/artifacts/screens/${name}.png` });
}

/** dnd-kit's screen-reader announcements: what a person using a screen reader hears while dragging. */
export function dragAnnouncements(page: Page) {
  return page.locator('[id^="DndLiveRegion"]');
}

/**
 * A mouse drag in small steps (dnd-kit needs real pointer moves past its activation distance) onto a
 * card; the button is released once the board announces the card is over that target.
 */
export async function dragCard(page: Page, from: Locator, to: Locator, offsetY = 0) {
  const source = await from.boundingBox();
  const target = await to.boundingBox();
  const targetTitle = await to.getAttribute("aria-label");
  if (!source || !target || !targetTitle) throw new Error("card not visible");
  await page.mouse.move(source.x + source.width / 2, source.y + source.height / 2);
  await page.mouse.down();
  await page.mouse.move(source.x + source.width / 2 + 10, source.y + source.height / 2 + 10, { steps: 5 });
  await page.mouse.move(target.x + target.width / 2, target.y + target.height / 2 + offsetY, { steps: 15 });
  await expect(dragAnnouncements(page)).toContainText(`is over task ${targetTitle} in`);
  await page.mouse.up();
}

/** A new directory in the Playwright server's scratch directory, which goes when that server stops. */
export function scratchDir(prefix: string): string {
  return fs.mkdtempSync(path.join(e2eScratchRoot(), prefix));
}

/** A bare repository with one commit on main (holding `files`), as a remote on the server's disk (administrators may connect one). */
export function bareRepository(files: Record<string, string> = { "README.md": "A project.\n" }): string {
  const remote = scratchDir("remote-");
  const work = scratchDir("clone-");
  const git = (cwd: string, ...args: string[]) =>
    execFileSync("git", ["-c", "user.name=E2E", "-c", "user.email=e2e@example.invalid", ...args], { cwd, stdio: "pipe" });
  git(remote, "init", "--bare", "-b", "main");
  git(work, "init", "-b", "main");
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(work, name), text);
  git(work, "add", ".");
  git(work, "commit", "-m", "Start");
  git(work, "push", remote, "main");
  return remote;
}

/** The two screens every new page is looked at on (desktop and phone). */
export const SCREEN_SIZES = [
  { name: "desktop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;

/**
 * A screenshot at each of SCREEN_SIZES, scrolled to `focus` (a section further down the page), saved
 * as tests/artifacts/screens/<name>-<size>.png; the page is left at the desktop size.
 */
export async function screens(page: Page, name: string, focus?: Locator) {
  for (const size of SCREEN_SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await focus?.evaluate((element) => element.scrollIntoView({ block: "start", inline: "start" }));
    await page.screenshot({ path: `tests/artifacts/screens/${name}-${size.name}.png` });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}
