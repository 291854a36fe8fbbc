import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, finished, newTask, outputLines, processAlive } from "../helpers/engine";
import { workspaceWithRunner } from "../helpers/runner-of-its-own";

// Runs of Agent Client Protocol profiles through the HTTP API: the fake ACP agent
// (tests/fixtures/fake-acp-agent.mjs, scripted by `@fake` lines) and the real Claude Code adapter.
// On the shared server, in an administrator's workspaces served only by a runner process of their
// own (its timeout, kill grace and slots are this file's). Runs without a profile use the
// workspaces' default profile, the command fixture, which hands out agent tokens.

const FAKE_ACP = path.resolve("tests/fixtures/fake-acp-agent.mjs");
const CLAUDE_ADAPTER = path.resolve("node_modules/@zed-industries/claude-agent-acp/dist/index.js");

let owned: Awaited<ReturnType<typeof workspaceWithRunner>>;
let server: typeof owned.server;
let token: string;
let wsId: string;
let agentId: string;
// The runner's, given explicitly: its default is under the runner's private directory, not this process's.
let workRoot: string;
const agentWorkdir = (workspace: string, taskId: string) => path.join(workRoot, workspace, taskId);
// Every run the file started, so that none is left holding the runner when a test fails midway.
const runs: { workspace: string; id: string }[] = [];

interface Entry {
  seq: number;
  at: string;
  type: string;
  update: Record<string, any>;
}

beforeAll(async () => {
  workRoot = fs.mkdtempSync(path.join(os.tmpdir(), "taskboard-acp-runs-work-"));
  owned = await workspaceWithRunner("acp-runs", {
    AGENT_TIMEOUT_SECONDS: "60",
    AGENT_KILL_GRACE_SECONDS: "1",
    AGENT_MAX_CONCURRENT: "4",
    AGENT_LOG_FLUSH_MS: "100",
    AGENT_WORKDIR: path.join(workRoot, "{workspace_id}", "{task_id}"),
  });
  ({ server, token, wsId } = owned);
  agentId = (await profile("Fake ACP", [FAKE_ACP])).id;
});

afterAll(async () => {
  // A run a failed test left going would hold up the runner's stop, then be handed back.
  for (const run of runs) await server?.call("POST", `/api/workspaces/${run.workspace}/executions/${run.id}/cancel`, { token });
  await owned?.stop();
  if (workRoot) fs.rmSync(workRoot, { recursive: true, force: true });
});

const base = () => `/api/workspaces/${wsId}`;

async function profile(name: string, args: string[], workspace = wsId) {
  const created = await server.call("POST", `/api/workspaces/${workspace}/agents`, {
    token,
    json: { name, kind: "acp", command: process.execPath, args },
  });
  expect(created.status).toBe(201);
  return created.body as { id: string };
}

async function start(taskId: string, json: Record<string, unknown>, workspace = wsId) {
  const started = await server.call("POST", `/api/workspaces/${workspace}/tasks/${taskId}/runs`, { token, json });
  if (started.status === 202) runs.push({ workspace, id: started.body.id });
  return started;
}

async function entries(executionId: string): Promise<Entry[]> {
  const all: Entry[] = [];
  for (let offset = 0; ;) {
    const page = await server.call("GET", `${base()}/executions/${executionId}/log?offset=${offset}`, { token });
    expect(page.status).toBe(200);
    all.push(...page.body.entries);
    if (page.body.next_offset === offset) return all;
    offset = page.body.next_offset;
  }
}

function said(log: Entry[]): string {
  return log
    .filter((e) => e.type === "agent_message_chunk")
    .map((e) => e.update.content.text)
    .join("");
}

async function openPermission(taskId: string, executionId: string) {
  return eventually(
    async () => {
      const list = await server.call("GET", `${base()}/questions?task_id=${taskId}&status=open`, { token });
      return list.body.find((q: { execution_id: string | null }) => q.execution_id === executionId);
    },
    20_000,
    "the permission question",
  );
}

async function questionOf(taskId: string, questionId: string) {
  const list = await server.call("GET", `${base()}/questions?task_id=${taskId}`, { token });
  return list.body.find((q: { id: string }) => q.id === questionId);
}

/** The agent token of a run of the command fixture that holds (it prints TOKEN=…). */
async function heldAgentToken(workspace: string) {
  const task = await newTask(server.call, token, workspace, { title: "hold" });
  const started = await start(task.id, { instructions: "hold 60" }, workspace);
  expect(started.status).toBe(202);
  const agentToken = await eventually(async () => {
    const log = await server.call("GET", `/api/workspaces/${workspace}/executions/${started.body.id}/log`, { token });
    return outputLines(log.body)
      .find((line) => line.startsWith("TOKEN="))
      ?.slice("TOKEN=".length);
  }, 20_000);
  return { agentToken: agentToken!, executionId: started.body.id as string };
}

describe("a run of an ACP profile", () => {
  let taskId: string;
  let first: { id: string; acp_session_id: string };

  it("streams the agent's updates, asks its permission as a question, resumes on the answer and records usage", async () => {
    const task = await newTask(server.call, token, wsId, { title: "acp task" });
    taskId = task.id;
    const instructions = [
      "Edit the notes.",
      "@fake write NOTES.md hello",
      "@fake permission",
      "@fake usage 1200 200000 0.01",
      "@fake tokens 1000 200",
    ].join("\n");
    const started = await start(task.id, { instructions, agent_id: agentId });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ agent_id: agentId, task_id: task.id });

    // The permission request: a question with the agent's three options, the run waiting for input.
    const question = await openPermission(task.id, started.body.id);
    expect(question).toMatchObject({
      options: ["Allow once", "Always allow", "Reject"],
      status: "open",
      execution_id: started.body.id,
      content: "The agent asks permission: Run the test suite",
    });
    const waiting = await server.call("GET", `${base()}/executions/${started.body.id}`, { token });
    expect(waiting.body.status).toBe("waiting_for_input");
    const runs = await server.call("GET", `${base()}/tasks/${task.id}/runs`, { token });
    expect(runs.body[0]).toMatchObject({ status: "waiting_for_input", agent_id: agentId, agent_name: "Fake ACP" });
    const card = await server.call("GET", `${base()}/tasks/${task.id}`, { token });
    expect(card.body).toMatchObject({ latest_run_status: "waiting_for_input" });
    expect(card.body.questions.map((q: { id: string; execution_id: string }) => [q.id, q.execution_id])).toEqual([
      [question.id, started.body.id],
    ]);
    // Another run of the task is refused while this one waits.
    expect((await start(task.id, { agent_id: agentId })).status).toBe(409);

    // Only one of the agent's options is an answer.
    const wrong = await server.call("POST", `${base()}/questions/${question.id}/answer`, { token, json: { answer: "Sure" } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.detail[0]).toMatchObject({ loc: ["body", "answer"] });
    const answered = await server.call("POST", `${base()}/questions/${question.id}/answer`, { token, json: { answer: "Always allow" } });
    expect(answered.status).toBe(200);

    const done = await finished(server.call, token, wsId, started.body.id);
    expect(done).toMatchObject({ status: "succeeded", error_message: null, agent_id: agentId, acp_session_loaded: false });
    expect(done.acp_session_id).toMatch(/^fake-/);
    first = done;

    const log = await entries(done.id);
    expect(log.map((e) => e.seq)).toEqual(log.map((_, i) => i));
    expect(log[0]).toMatchObject({ type: "prompt", update: { text: instructions } });
    const types = new Set(log.map((e) => e.type));
    for (const type of ["agent_message_chunk", "plan", "tool_call", "tool_call_update", "permission", "usage_update", "stop"]) {
      expect(types, type).toContain(type);
    }
    const toolCall = log.find((e) => e.type === "tool_call")!;
    expect(toolCall.update).toMatchObject({ sessionUpdate: "tool_call", kind: "edit", title: "Write NOTES.md", status: "in_progress" });
    const cwd = path.dirname(toolCall.update.locations[0].path);
    expect(fs.readFileSync(path.join(cwd, "NOTES.md"), "utf8")).toBe("hello");
    const permissions = log.filter((e) => e.type === "permission");
    expect(permissions.map((e) => e.update.outcome ?? null)).toEqual([
      null,
      { outcome: "selected", option_id: "allow-always", name: "Always allow" },
    ]);
    expect(permissions[0].update).toMatchObject({
      question_id: question.id,
      title: "Run the test suite",
      options: [
        { id: "allow-once", name: "Allow once", kind: "allow_once" },
        { id: "allow-always", name: "Always allow", kind: "allow_always" },
        { id: "reject", name: "Reject", kind: "reject_once" },
      ],
    });
    expect(log[log.length - 1]).toMatchObject({ type: "stop", update: { stop_reason: "end_turn" } });
    expect(said(log)).toContain("Permission answered: allow-always");
    // The board's MCP server was handed over, as the run's agent token.
    expect(said(log)).toContain(`MCP servers: taskboard (http ${server.url}/api/mcp Bearer tbg_…)`);

    const [run] = (await server.call("GET", `${base()}/tasks/${task.id}/runs`, { token })).body;
    expect(run).toMatchObject({
      status: "succeeded",
      agent_id: agentId,
      agent_name: "Fake ACP",
      usage: { input_tokens: 1000, output_tokens: 200, total_tokens: 1200, cost: { amount: 0.01, currency: "USD" } },
    });
    expect(done.report).toBe("Done.");
    expect(await questionOf(task.id, question.id)).toMatchObject({ status: "answered", answer: "Always allow" });
  });

  it("continues the same ACP session in a follow-up run (session/load)", async () => {
    const started = await start(taskId, { instructions: "@fake write more.txt two", agent_id: agentId });
    expect(started.status).toBe(202);
    const done = await finished(server.call, token, wsId, started.body.id);
    expect(done).toMatchObject({ status: "succeeded", acp_session_id: first.acp_session_id, acp_session_loaded: true });
    expect(said(await entries(done.id))).toContain("Continuing the earlier session.");
  });

  it("cancel answers the pending permission `cancelled`, ends the turn and stops the agent", async () => {
    const task = await newTask(server.call, token, wsId, { title: "cancel me" });
    const started = await start(task.id, { instructions: "@fake permission\n@fake write never.txt no", agent_id: agentId });
    const question = await openPermission(task.id, started.body.id);
    const cancelled = await server.call("POST", `${base()}/executions/${started.body.id}/cancel`, { token });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: "cancelled", error_message: `cancelled by ${owned.username}` });
    expect(processAlive(started.body.runner_pid)).toBe(false);
    expect(await questionOf(task.id, question.id)).toMatchObject({ status: "answered", answer: "cancelled" });
    const log = await entries(started.body.id);
    expect(log.filter((e) => e.type === "permission").map((e) => e.update.outcome ?? null)).toEqual([null, { outcome: "cancelled" }]);
    // The agent's working directory (the runner's AGENT_WORKDIR).
    expect(fs.existsSync(path.join(agentWorkdir(wsId, task.id), "never.txt"))).toBe(false);
    const [run] = (await server.call("GET", `${base()}/tasks/${task.id}/runs`, { token })).body;
    expect(run.status).toBe("cancelled");
  });

  it("lets no agent token answer a permission question: not another workspace's, not even its own workspace's", async () => {
    const task = await newTask(server.call, token, wsId, { title: "guarded" });
    const started = await start(task.id, { instructions: "@fake permission", agent_id: agentId });
    const question = await openPermission(task.id, started.body.id);
    const other = await owned.another(`other-${Date.now()}`);
    const foreign = await heldAgentToken(other);
    const own = await heldAgentToken(wsId);
    const answer = (bearer: string) =>
      server.call("POST", `${base()}/questions/${question.id}/answer`, { token: bearer, json: { answer: "Allow once" } });
    expect((await answer(foreign.agentToken)).status).toBe(403);
    const ownAnswer = await answer(own.agentToken);
    expect(ownAnswer.status).toBe(403);
    expect(ownAnswer.body.detail).toMatch(/agent token may not answer questions/);
    // Deleting an open permission request would answer it "cancelled": refused to agent tokens too.
    const deleted = await server.call("DELETE", `${base()}/questions/${question.id}`, { token: own.agentToken });
    expect(deleted.status).toBe(403);
    expect(deleted.body.detail).toMatch(/agent token may not delete an open permission request/);
    expect((await questionOf(task.id, question.id)).status).toBe("open");

    const answered = await answer(token);
    expect(answered.status).toBe(200);
    expect(answered.body.answered_by).toBe((await server.call("GET", "/api/auth/me", { token })).body.id);
    expect(await finished(server.call, token, wsId, started.body.id)).toMatchObject({ status: "succeeded" });
    await server.call("POST", `/api/workspaces/${other}/executions/${foreign.executionId}/cancel`, { token });
    await server.call("POST", `${base()}/executions/${own.executionId}/cancel`, { token });
  });

  it("fails with the agent's error in words when the turn fails", async () => {
    const task = await newTask(server.call, token, wsId, { title: "fails" });
    const started = await start(task.id, { instructions: "@fake fail no model configured", agent_id: agentId });
    const done = await finished(server.call, token, wsId, started.body.id);
    expect(done).toMatchObject({ status: "failed", error_message: "Fake ACP: Internal error: no model configured" });
    const log = await entries(done.id);
    expect(log[log.length - 1]).toMatchObject({ type: "error", update: { message: "Internal error: no model configured" } });
  });

  it("answers 404 for another workspace's profile", async () => {
    const other = await server.call("POST", "/api/workspaces", { token, json: { name: `theirs-${Date.now()}` } });
    const theirs = await profile("Theirs", [FAKE_ACP], other.body.id);
    const task = await newTask(server.call, token, wsId, { title: "not theirs" });
    const refused = await start(task.id, { agent_id: theirs.id });
    expect(refused).toMatchObject({ status: 404, body: { detail: "Agent not found" } });
  });
});

describe("the real Claude Code adapter as a profile (no credentials, no network)", () => {
  it("fails the run with the adapter's error in words", async () => {
    const claude = await profile("Claude Code", [CLAUDE_ADAPTER]);
    const task = await newTask(server.call, token, wsId, { title: "real adapter" });
    const started = await start(task.id, { instructions: "Say hello.", agent_id: claude.id });
    expect(started.status).toBe(202);
    const done = await finished(server.call, token, wsId, started.body.id, 60_000);
    expect(done.status).toBe("failed");
    expect(done.error_message).toMatch(/^Claude Code: .+/);
    expect(done.error_message).not.toMatch(/unknown error|\[object Object\]/i);
    const log = await entries(done.id);
    expect(log.find((e) => e.type === "error")?.update.message).toBe(done.error_message.slice("Claude Code: ".length));
  }, 90_000);
});
