#!/usr/bin/env node
// `npm run bench:agent`: from "Run agent" to the agent's first session/update, for an ACP profile
// (the fake ACP agent, tests/fixtures), measured twice: in a real browser (the click on "Start run"
// in the Run agent dialog to the first frame that shows the agent's message in the run's live view)
// and through the API alone (POST …/runs to the entry readable through GET …/log). The agent's own
// start-up (Node boot, SDK load, its side of the handshake until it sends its first update) is
// measured by the agent itself and subtracted: the board's cost is the rest. On PGlite and (when
// reachable) PostgreSQL; writes the results into docs/PERFORMANCE.md between the bench:agent markers.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { needsBuild, root } from "../lib/build-state.mjs";
import { benchClient, writeBenchSection } from "../lib/bench-report.mjs";
import { launchBrowser, signedInPage } from "../lib/bench-browser.mjs";
import { startServer } from "../lib/server.mjs";
import { createScratchDatabase, postgresReachable } from "../lib/postgres.mjs";

const FAKE_ACP = path.join(root, "tests/fixtures/fake-acp-agent.mjs");
const RUNS = 20;
const BROWSER_RUNS = 10;
const ADMIN = { username: "admin", password: "bench-admin-password" };

if (needsBuild()) {
  const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(1);
}

const browser = await launchBrowser();
const results = [await bench("pglite")];
if (await postgresReachable()) results.push(await bench("postgresql"));
else console.log("PostgreSQL not reachable: PGlite only");
await browser.close();
writeReport(results);
process.exit(0);

async function bench(kind) {
  const scratch = kind === "postgresql" ? await createScratchDatabase("taskboard_bench") : undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "taskboard-bench-agent-"));
  const env = { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, AGENT_MAX_CONCURRENT: "2" };
  const server = await startServer({ databaseUrl: scratch?.url, dataDir, label: `bench-agent-${kind}`, env });
  try {
    const api = benchClient(server.url);
    const token = (await api("POST", "/api/auth/login", ADMIN)).body.access_token;
    const ws = (await api("POST", "/api/workspaces", { name: "bench" }, token)).body.id;
    const profile = (
      await api(
        "POST",
        `/api/workspaces/${ws}/agents`,
        { name: "Fake ACP", kind: "acp", command: process.execPath, args: [FAKE_ACP], is_default: true },
        token,
      )
    ).body;
    const rows = [];
    for (let i = 0; i < RUNS; i++) {
      const task = (await api("POST", `/api/workspaces/${ws}/tasks`, { title: `bench ${i}`, status: "todo" }, token)).body.id;
      const requested = Date.now();
      const started = await api(
        "POST",
        `/api/workspaces/${ws}/tasks/${task}/runs`,
        { instructions: "@fake sleep 1", agent_id: profile.id },
        token,
      );
      if (started.status !== 202) throw new Error(`run: ${started.status} ${JSON.stringify(started.body)}`);
      let first;
      while (!first) {
        const log = (await api("GET", `/api/workspaces/${ws}/executions/${started.body.id}/log`, undefined, token)).body;
        first = log.entries.find((entry) => entry.type === "agent_message_chunk");
        if (!first) await sleep(5);
      }
      const seen = Date.now();
      const agentStartup = startupOf(first);
      rows.push({ total: seen - requested, agentStartup, overhead: seen - requested - agentStartup });
      await finished(api, ws, started.body.id, token);
    }
    const browserRows = await inBrowser(server.url, api, ws, token);
    const pick = (list, key) => list.map((row) => row[key]).sort((a, b) => a - b);
    const result = {
      kind,
      total: stats(pick(rows, "total")),
      agentStartup: stats(pick(rows, "agentStartup")),
      overhead: stats(pick(rows, "overhead")),
      browser: {
        total: stats(pick(browserRows, "total")),
        agentStartup: stats(pick(browserRows, "agentStartup")),
        overhead: stats(pick(browserRows, "overhead")),
      },
    };
    console.log(JSON.stringify(result));
    return result;
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    await scratch?.drop();
  }
}

/**
 * As a person does it: the task's link opens its dialog, "Run agent…" opens the Run agent dialog with
 * the default profile chosen and the instructions prefilled (the description holds the fake agent's
 * script), "Start run" starts it and opens the live view. Timed in the page, from the click on
 * "Start run" to the first animation frame whose run view shows the agent's first message.
 */
async function inBrowser(url, api, ws, token) {
  const page = await signedInPage(browser, url, ADMIN);
  const rows = [];
  for (let i = 0; i < BROWSER_RUNS; i++) {
    const task = (
      await api("POST", `/api/workspaces/${ws}/tasks`, { title: `browser ${i}`, description: "@fake sleep 1", status: "todo" }, token)
    ).body.id;
    await page.goto(`${url}/w/${ws}?task=${task}`);
    await page.getByRole("button", { name: "Run agent…" }).click();
    const start = page.getByRole("button", { name: "Start run" });
    await start.waitFor();
    const shown = page.evaluate(
      () =>
        new Promise((resolve) => {
          let clicked = 0;
          window.addEventListener("click", () => (clicked = performance.now()), { capture: true, once: true });
          const check = () => {
            const message = document.querySelector("[data-testid=run-view] [data-testid=run-log] [data-testid=log-message]");
            if (clicked && message && message.textContent.includes("Looking at the task.")) resolve(performance.now() - clicked);
            else requestAnimationFrame(check);
          };
          requestAnimationFrame(check);
        }),
    );
    await page.waitForTimeout(50);
    await start.click();
    const total = Math.round(await shown);
    const runs = (await api("GET", `/api/workspaces/${ws}/tasks/${task}/runs`, undefined, token)).body;
    const execution = runs[0].execution_id;
    const log = (await api("GET", `/api/workspaces/${ws}/executions/${execution}/log`, undefined, token)).body;
    const agentStartup = startupOf(log.entries.find((entry) => entry.type === "agent_message_chunk"));
    rows.push({ total, agentStartup, overhead: total - agentStartup });
    await finished(api, ws, execution, token);
  }
  await page.context().close();
  return rows;
}

/** The fake agent's own start-up, as it stamped it on its first message. */
function startupOf(entry) {
  const meta = entry.update._meta;
  return meta.fake_sent_at - meta.fake_process_started_at;
}

async function finished(api, ws, executionId, token) {
  for (;;) {
    const e = (await api("GET", `/api/workspaces/${ws}/executions/${executionId}`, undefined, token)).body;
    if (!["queued", "running", "waiting_for_input"].includes(e.status)) return;
    await sleep(50);
  }
}

function stats(sorted) {
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: at(0.5), p90: at(0.9), max: sorted[sorted.length - 1] };
}

function writeReport(results) {
  const row = (r, key) => `${r[key].median} / ${r[key].p90} / ${r[key].max}`;
  const section = [
    '## From "Run agent" to the agent\'s first update (`npm run bench:agent`)',
    "",
    `Per database, on ${os.cpus().length} cores (load average ${os.loadavg()[0].toFixed(1)} at the end; ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC), an ACP profile (the fake ACP agent):`,
    "",
    `- **In the browser** (${BROWSER_RUNS} runs, headless Chromium, production build): the task's link opens its dialog, "Run agent…" opens the`,
    '  Run agent dialog (default profile chosen, instructions prefilled); timed in the page from the click on "Start run" to the first',
    "  animation frame whose live run view shows the agent's first message (it arrives through the workspace's event stream).",
    `- **Through the API** (${RUNS} runs): from sending \`POST …/runs\` to the first \`agent_message_chunk\` entry readable through \`GET …/log\` (polled every 5 ms).`,
    "",
    "The agent's own start-up (Node boot, SDK load, its side of initialize/session/new until it sends the update) is timed by",
    "the agent and subtracted: the rest is the board's cost (request, claim, working directory, spawn, handshake, the write",
    "of the entry, the event or the read, and in the browser the render). Goal: ≤ 300 ms beyond the agent's own start-up.",
    "Milliseconds, median / p90 / max.",
    "",
    "| database | measured | total | agent's own start-up | board's cost |",
    "|---|---|---|---|---|",
    ...results.flatMap((r) => [
      `| ${r.kind} | in the browser | ${row(r.browser, "total")} | ${row(r.browser, "agentStartup")} | ${row(r.browser, "overhead")} |`,
      `| ${r.kind} | through the API | ${row(r, "total")} | ${row(r, "agentStartup")} | ${row(r, "overhead")} |`,
    ]),
    "",
    "An idle runner sends the first entry after a quiet spell at once (lib/runner-process/log-courier.ts), not after AGENT_LOG_FLUSH_MS.",
  ];
  writeBenchSection("agent", section);
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
