// `npm run bench:answers` (issue #38): how long from a person's reply arriving to the agent having
// it, per channel, and whether a burst of questions survives a kill -9 of the server without a
// message sent twice. On PGlite (BENCH_DATABASE_URL for PostgreSQL), production build.
//
// Latency: a fake ACP agent asks a permission question (tests/fixtures/fake-acp-agent.mjs); the
// question reaches a member through the channel's local stand-in; the bench answers it there as the
// person would and reads the run's log until the agent's "Permission answered" line. The time is that
// line's `at` (the runner's clock, this machine) minus the moment the reply was handed over.
// Burst: BENCH_BURST questions (200) on tasks assigned to that member, ten at a time; halfway the
// server and its runner are killed with SIGKILL and started again on the same data. Every question
// must reach every channel exactly once. Writes docs/PERFORMANCE.md between the bench:answers markers.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { needsBuild, root } from "../lib/build-state.mjs";
import { benchClient, writeBenchSection } from "../lib/bench-report.mjs";
import { descendants } from "../lib/process-tree.mjs";
import { freePort, startServer } from "../lib/server.mjs";
import { emailChannel, pushChannel, sleep, slackChannel, SLACK_CHANNEL, type AnswerChannel, type Person } from "./answers/channels";

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 10);
const BURST = Number(process.env.BENCH_BURST ?? 200);
const ADMIN = { username: "admin", password: "bench-admin-password" };
const FAKE_ACP = path.join(root, "tests", "fixtures", "fake-acp-agent.mjs");
const EMAIL = "ann@bench.example.com";

if (needsBuild()) {
  const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(1);
}

const channels: AnswerChannel[] = [await slackChannel({ [EMAIL]: "UANN" }), await pushChannel(), await emailChannel()];
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "taskboard-bench-answers-"));
const port = await freePort();
const env = Object.assign(
  { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, AGENT_KILL_GRACE_SECONDS: "1" },
  ...channels.map((channel) => channel.env),
);
const start = () => startServer({ databaseUrl: process.env.BENCH_DATABASE_URL, dataDir, port, label: "bench-answers", env });
let server = await start();
const call = benchClient(server.url);
const admin = (await call("POST", "/api/auth/login", ADMIN)).body.access_token as string;
const wsId = (await call("POST", "/api/workspaces", { name: "answers" }, admin)).body.id as string;
await call("PATCH", `/api/workspaces/${wsId}`, { slack_channel: SLACK_CHANNEL }, admin);
const ann = await member("ann", EMAIL);
for (const channel of channels) await channel.enrol(server.url, ann);
const agentId = (
  await call(
    "POST",
    `/api/workspaces/${wsId}/agents`,
    { name: "Fake ACP", kind: "acp", command: process.execPath, args: [FAKE_ACP] },
    admin,
  )
).body.id;

const latencies = new Map<string, number[]>();
for (const channel of channels) {
  const taken: number[] = [];
  for (let i = 0; i < SAMPLES; i++) taken.push(await answerOnce(channel, i));
  latencies.set(channel.name, taken);
  console.log(`${channel.name}: ${taken.join(", ")} ms`);
}
const burst = await burstWithKill();
await server.stop();
await Promise.all(channels.map((channel) => channel.close()));
fs.rmSync(dataDir, { recursive: true, force: true });
report();
process.exit(0);

async function member(username: string, email: string): Promise<Person> {
  const made = await call("POST", "/api/users", { username, password: "bench-password-1", email }, admin);
  await call("POST", `/api/workspaces/${wsId}/members`, { username, role: "member" }, admin);
  const token = (await call("POST", "/api/auth/login", { username, password: "bench-password-1" })).body.access_token as string;
  return { id: made.body.id, username, email, token };
}

/** One permission question answered through `channel`: ms from the reply to the agent's line. */
async function answerOnce(channel: AnswerChannel, i: number): Promise<number> {
  const task = (
    await call(
      "POST",
      `/api/workspaces/${wsId}/tasks`,
      { title: `${channel.name} ${i}`, status: "todo", assignees: [{ kind: "user", id: ann.id }] },
      admin,
    )
  ).body;
  const run = (
    await call("POST", `/api/workspaces/${wsId}/tasks/${task.id}/runs`, { instructions: "@fake permission", agent_id: agentId }, admin)
  ).body;
  let question: { id: string; content: string } | undefined;
  while (!(question = (await call("GET", `/api/workspaces/${wsId}/questions?task_id=${task.id}&status=open`, undefined, admin)).body[0]))
    await sleep(20);
  // The task's link is in every message of its question (Slack finds the post by the question's id).
  const sent = await channel.answer(server.url, ann, question.id, `task=${task.id}`, i % 2);
  for (;;) {
    const log = (await call("GET", `/api/workspaces/${wsId}/executions/${run.id}/log`, undefined, admin)).body;
    const line = log.entries.find((entry: unknown) => JSON.stringify(entry).includes("Permission answered"));
    if (line) return Date.parse(line.at) - sent;
    if (["failed", "cancelled", "timed_out"].includes(log.status)) throw new Error(`run ${run.id} ended ${log.status}`);
    await sleep(20);
  }
}

/** BENCH_BURST questions, ten at a time, with a kill -9 halfway; then what each channel delivered. */
async function burstWithKill() {
  const stamp = Date.now().toString(36);
  // Unique words per question, none a prefix of another ("-1-end" is not in "-10-end"), and not in
  // the task's title, which the assignment's own message repeats.
  const markers = Array.from({ length: BURST }, (_, i) => `Burst question ${stamp}-${i}-end`);
  const acknowledged: { taskId: string; questionId: string }[] = [];
  const ask = async (marker: string) => {
    const assignees = [{ kind: "user", id: ann.id }];
    const task = (await call("POST", `/api/workspaces/${wsId}/tasks`, { title: "burst", assignees }, admin)).body;
    const question = { task_id: task.id, content: `${marker}?`, options: ["Yes", "No"] };
    const asked = await call("POST", `/api/workspaces/${wsId}/questions`, question, admin);
    if (asked.status === 201) acknowledged.push({ taskId: task.id, questionId: asked.body.id });
  };
  const half = Math.floor(BURST / 2);
  for (let i = 0; i < half; i += 10) await Promise.all(markers.slice(i, Math.min(i + 10, half)).map(ask));
  const killed = Date.now();
  for (const pid of (descendants(server.child.pid!) as number[]).reverse()) process.kill(pid, "SIGKILL");
  await new Promise((resolve) => (server.child.exitCode === null ? server.child.once("exit", resolve) : resolve(null)));
  server = await start();
  const restartMs = Date.now() - killed;
  for (let i = half; i < BURST; i += 10) await Promise.all(markers.slice(i, i + 10).map(ask));
  const lost: string[] = [];
  for (const { taskId, questionId } of acknowledged) {
    const listed = (await call("GET", `/api/workspaces/${wsId}/questions?task_id=${taskId}`, undefined, admin)).body;
    if (!listed.some((question: { id: string }) => question.id === questionId)) lost.push(questionId);
  }
  // Until every question reached every channel, or 3 minutes (a killed server's leases run out in 60 s).
  const settled = Date.now();
  while (Date.now() - settled < 180_000 && channels.some((channel) => markers.some((marker) => channel.deliveries(marker) === 0)))
    await sleep(500);
  await sleep(5_000);
  return {
    restartMs,
    acknowledged: acknowledged.length,
    lost: lost.length,
    perChannel: channels.map((channel) => {
      const counts = markers.map((marker) => channel.deliveries(marker));
      return { name: channel.name, delivered: counts.filter((n) => n > 0).length, duplicates: counts.filter((n) => n > 1).length };
    }),
  };
}

function report() {
  const quantile = (values: number[], q: number) =>
    [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];
  const when = new Date().toISOString().slice(0, 16).replace("T", " ");
  const lines = [
    "## From a reply to the agent (`npm run bench:answers`)",
    "",
    `Measured ${when} UTC on ${process.env.BENCH_DATABASE_URL ? "PostgreSQL" : "PGlite"}, 2 cores, load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(" ")} at the end. ` +
      `${SAMPLES} permission questions of the fake ACP agent per channel, each answered at the channel's local stand-in; the time runs from the reply handed over to the agent's "Permission answered" line.`,
    "",
    "| channel | median | p90 | max | goal |",
    "|---|---:|---:|---:|---|",
    ...[...latencies].map(([name, values]) => {
      const goal = /mail/i.test(name) ? 5000 : 1000;
      const median = quantile(values, 0.5);
      return `| ${name} | ${median} ms | ${quantile(values, 0.9)} ms | ${Math.max(...values)} ms | ≤ ${goal / 1000} s: ${median <= goal ? "met" : "missed"} |`;
    }),
    "",
    `Burst: ${BURST} questions on tasks assigned to one member, ten at a time; after ${Math.floor(BURST / 2)} the server and its runner were killed with SIGKILL and started again on the same data (${burst.restartMs} ms to healthy). ` +
      `${burst.acknowledged} questions acknowledged, ${burst.lost} of them lost.`,
    "",
    "| channel | questions delivered | delivered twice |",
    "|---|---:|---:|",
    ...burst.perChannel.map((row) => `| ${row.name} | ${row.delivered} of ${BURST} | ${row.duplicates} |`),
  ];
  writeBenchSection("answers", lines);
  console.log(lines.join("\n"));
}
