// Takes the README's screenshot of the board (docs/images/board.png): the production build on a
// fresh embedded database, a workspace with a few tasks in every column, an open question and a
// finished run of the bundled demo agent, photographed signed in at 1440×900.
//   node scripts/screenshot-board.mjs        (E2E_PORT picks the port; builds first when needed)
import { spawnSync } from "node:child_process";
import path from "node:path";
import { needsBuild, root } from "./lib/build-state.mjs";
import { launchBrowser, signedInPage } from "./lib/bench-browser.mjs";
import { startServer } from "./lib/server.mjs";

const ADMIN = { username: "ada", password: "screenshot-password" };
const OUT = path.join(root, "docs/images/board.png");

const TASKS = [
  { title: "Sketch the onboarding flow", status: "backlog", priority: "p3", tags: ["design"] },
  { title: "Export the board as CSV", status: "backlog", priority: "p4", tags: ["feature"] },
  { title: "Rate-limit the public API", status: "todo", priority: "p1", tags: ["security"] },
  { title: "Add dark mode to settings", status: "todo", priority: "p2", tags: ["ui"] },
  { title: "Fix flaky login test", status: "todo", priority: "p2", tags: ["tests"] },
  { title: "Write the release notes", status: "in_progress", priority: "p2", tags: ["docs"], run: true },
  { title: "Migrate invoices to PostgreSQL", status: "in_progress", priority: "p1", tags: ["backend"], question: true },
  { title: "Show usage per agent run", status: "in_review", priority: "p2", tags: ["feature"] },
  { title: "Set up single sign-on", status: "done", priority: "p1", tags: ["auth"] },
  { title: "Board loads in one query", status: "done", priority: "p2", tags: ["performance"] },
];

if (needsBuild()) {
  console.log("[screenshot] building…");
  const built = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const env = { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password };
const port = process.env.E2E_PORT ? Number(process.env.E2E_PORT) : undefined;
const server = await startServer({ env, label: "screenshot", port });
let browser;
try {
  const token = (await call(server.url, "POST", "/api/auth/login", ADMIN)).access_token;
  const workspace = await call(server.url, "POST", "/api/workspaces", { name: "Acme web app" }, token);
  const base = `/api/workspaces/${workspace.id}`;
  for (const { run, question, ...task } of TASKS) {
    const created = await call(server.url, "POST", `${base}/tasks`, task, token);
    if (question) {
      const content = "Keep the old invoice numbers, or start again from 1?";
      await call(server.url, "POST", `${base}/questions`, { task_id: created.id, content, options: ["Keep them", "Start from 1"] }, token);
    }
    if (run) {
      const started = await call(server.url, "POST", `${base}/tasks/${created.id}/runs`, { instructions: "Draft the notes." }, token);
      await finished(server.url, `${base}/executions/${started.id}`, token);
    }
  }
  browser = await launchBrowser();
  const page = await signedInPage(browser, server.url, ADMIN);
  await page.goto(`${server.url}/w/${workspace.id}`);
  await page.getByRole("region", { name: "Done", exact: true }).getByText("Board loads in one query").waitFor();
  await page.waitForLoadState("networkidle");
  await page.screenshot({ path: OUT });
  console.log(`[screenshot] wrote ${path.relative(root, OUT)}`);
} finally {
  await browser?.close();
  await server.stop();
}

async function call(url, method, route, body, token) {
  const response = await fetch(`${url}${route}`, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Waits until the demo agent's execution has ended, so the card shows the run's outcome. */
async function finished(url, route, token) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const execution = await call(url, "GET", route, undefined, token);
    if (!["queued", "running", "waiting_for_input"].includes(execution.status)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${route} did not finish within 60 s`);
}
