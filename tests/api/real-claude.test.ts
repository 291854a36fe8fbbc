import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, processAlive } from "../helpers/engine";
import {
  answer,
  diffOf,
  done,
  entries,
  openPermission,
  permissionEntry,
  presetProfile,
  realAgentWorld,
  runOf,
  said,
  startRun,
  task,
  worktree,
  type RealAgentWorld,
} from "../helpers/real-agents";
import { agentHomesDir, agentSessionsDir } from "@/lib/platform/runner-config";

// The real Claude Code (the shipped @zed-industries/claude-agent-acp, which bundles the CLI) through
// the product's own paths: a workspace with a repository, a profile made from the Claude Code
// preset, runs started over the API. The model is the scripted Anthropic fake.

let world: RealAgentWorld;
let agentId: string;

beforeAll(async () => {
  world = await realAgentWorld("real-claude", { AGENT_SILENCE_SECONDS: "90", SCHEDULER_INTERVAL_MS: "500" });
  agentId = (await presetProfile(world, "claude-code")).id;
}, 120_000);

afterAll(async () => {
  await world?.stop();
});

/** Processes whose environment names the execution: the agent's whole tree. */
function processesOf(executionId: string): number[] {
  const found: number[] = [];
  for (const pid of fs.readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/environ`, "utf8").includes(`TASKBOARD_EXECUTION_ID=${executionId}`) && processAlive(Number(pid))) {
        found.push(Number(pid));
      }
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

describe("Claude Code from its preset", () => {
  let taskId: string;
  let sessionId: string;

  it("asks permission for its Write with its own options, writes the file once allowed, and records the plan, tool calls, usage and model", async () => {
    const t = await task(world, "Say hello in a file");
    taskId = t.id;
    const file = path.join(worktree(world, t.id), "hello.txt");
    const marker = world.model.script("write-hello", [
      {
        text: "First a plan.",
        tools: [
          { name: "TodoWrite", input: { todos: [{ content: "Write hello.txt", status: "in_progress", activeForm: "Writing hello.txt" }] } },
        ],
      },
      { tools: [{ name: "Write", input: { file_path: file, content: "Hello from Claude\n" } }] },
      ({ results }) => ({ text: `Wrote hello.txt (${results.join(" ").includes("hello.txt") ? "confirmed" : "unconfirmed"}).` }),
    ]);
    const started = await startRun(world, t.id, { instructions: `Write hello.txt. ${marker}`, agent_id: agentId });

    const question = await openPermission(world, t.id, started.id);
    expect(question.content).toBe("The agent asks permission: Write hello.txt");
    expect((await world.server.call("GET", `${world.base()}/executions/${started.id}`, { token: world.token })).body.status).toBe(
      "waiting_for_input",
    );
    const asked = await permissionEntry(world, started.id);
    // The question's options are the agent's own option names, in its order.
    expect(question.options).toEqual(asked.update.options.map((o: { name: string }) => o.name));
    expect(asked.update.options.map((o: { kind: string }) => o.kind)).toEqual(["allow_always", "allow_once", "reject_once"]);
    expect(fs.existsSync(file)).toBe(false);

    const allow = asked.update.options.find((o: { kind: string }) => o.kind === "allow_once").name;
    await answer(world, question.id, allow);
    const execution = await done(world, started.id);
    // On the server's embedded runner, a process of its own that speaks the runner protocol.
    expect(execution).toMatchObject({
      status: "succeeded",
      error_message: null,
      acp_session_loaded: false,
      runner_name: expect.stringMatching(/^embedded \(/),
    });
    sessionId = execution.acp_session_id;
    expect(sessionId).toBeTruthy();

    expect(fs.readFileSync(file, "utf8")).toBe("Hello from Claude\n");
    const diff = await diffOf(world, t.id);
    const added = diff.files.find((f) => f.path === "hello.txt")!;
    expect(added.status).toBe("added");
    expect(
      added.hunks
        .flatMap((h) => h.lines)
        .filter((l) => l.type === "add")
        .map((l) => l.text),
    ).toEqual(["Hello from Claude"]);

    const log = await entries(world, started.id);
    const plan = log.find((e) => e.type === "plan")!;
    expect(plan.update.entries).toEqual([expect.objectContaining({ content: "Write hello.txt", status: "in_progress" })]);
    const write = log.find((e) => e.type === "tool_call" && e.update.kind === "edit")!;
    const titles = log.filter((e) => e.update.toolCallId === write.update.toolCallId).map((e) => e.update.title);
    expect(titles.some((title) => /hello\.txt/.test(title ?? ""))).toBe(true);
    expect(
      log.some((e) => e.type === "tool_call_update" && e.update.toolCallId === write.update.toolCallId && e.update.status === "completed"),
    ).toBe(true);
    expect(said(log)).toContain("Wrote hello.txt (confirmed).");
    expect(log.filter((e) => e.type === "permission").map((e) => e.update.outcome?.name ?? null)).toEqual([null, allow]);

    const run = await runOf(world, t.id);
    expect(run.usage.input_tokens).toBeGreaterThan(0);
    expect(run.usage.output_tokens).toBeGreaterThan(0);
    expect(typeof run.model).toBe("string");
    expect(run.no_output).toBe(false);
    // The whole conversation reached the fake, the tool's result included.
    const played = world.model.played("write-hello");
    expect(played.map((r) => r.step)).toEqual([0, 1, 2]);
    expect(played[0].headers["x-api-key"]).toBe("sk-ant-test-key");
  }, 180_000);

  it("continues the same session in a follow-up (Request changes)", async () => {
    const marker = world.model.script("follow-up", [({ results }) => ({ text: `Continuing; earlier results seen: ${results.length}.` })]);
    const started = await startRun(world, taskId, {
      instructions: `Address the review. ${marker}`,
      agent_id: agentId,
      comments: [{ path: "hello.txt", line: 1, body: "Say it louder" }],
    });
    const execution = await done(world, started.id);
    expect(execution).toMatchObject({ status: "succeeded", acp_session_id: sessionId, acp_session_loaded: true });
    // The model saw the earlier turn (its marker) before the follow-up's.
    const [request] = world.model.played("follow-up");
    expect(JSON.stringify(request.body.messages)).toContain("[script:write-hello]");
    expect(JSON.stringify(request.body.messages)).toContain("Say it louder");
  }, 180_000);

  it("keeps the session files for the task's follow-ups, and removes them with its worktree when the task is deleted", async () => {
    const sessions = agentSessionsDir(world.wsId, taskId);
    expect(fs.readdirSync(path.join(sessions, agentId, ".claude", "projects")).length).toBeGreaterThan(0);
    expect((await world.server.call("DELETE", `${world.base()}/tasks/${taskId}`, { token: world.token })).status).toBe(204);
    await eventually(async () => (fs.existsSync(sessions) ? undefined : true), 30_000, "the session files to go");
    expect(fs.existsSync(worktree(world, taskId))).toBe(false);
  }, 60_000);

  it("ends the turn without the change when the person rejects", async () => {
    const t = await task(world, "Rejected write");
    const file = path.join(worktree(world, t.id), "nope.txt");
    const marker = world.model.script("rejected", [
      { tools: [{ name: "Write", input: { file_path: file, content: "should not land\n" } }] },
      { text: "Understood, I will not write it." },
    ]);
    const started = await startRun(world, t.id, { instructions: `Write nope.txt. ${marker}`, agent_id: agentId });
    const question = await openPermission(world, t.id, started.id);
    const asked = await permissionEntry(world, started.id);
    await answer(world, question.id, asked.update.options.find((o: { kind: string }) => o.kind === "reject_once").name);
    const execution = await done(world, started.id);
    expect(["succeeded", "failed"]).toContain(execution.status);
    expect(fs.existsSync(file)).toBe(false);
    const diff = await world.server.call("GET", `${world.base()}/tasks/${t.id}/diff`, { token: world.token });
    expect(diff.body.files ?? []).toEqual([]);
  }, 180_000);

  it("cancel mid-turn ends the CLI's whole process tree", async () => {
    const t = await task(world, "Slow model");
    const marker = world.model.script("slow", [{ text: "Too late.", delayMs: 60_000 }]);
    const started = await startRun(world, t.id, { instructions: `Think long. ${marker}`, agent_id: agentId });
    await eventually(async () => (world.model.played("slow").length > 0 ? true : undefined), 90_000, "the model request");
    const tree = processesOf(started.id);
    expect(tree.length).toBeGreaterThan(1); // the adapter and the CLI it started
    // The adapter runs from the server's own installation, inside the sandbox (the run's process
    // is the sandbox's outer shell, and bubblewrap its child), with a private HOME of its own.
    const { runner_pid } = (await world.server.call("GET", `${world.base()}/executions/${started.id}`, { token: world.token })).body;
    expect(fs.readFileSync(`/proc/${runner_pid}/cmdline`, "utf8")).toMatch(/^\/bin\/sh\0-c\0/);
    expect(execFileSync("ps", ["-o", "comm=", "--ppid", String(runner_pid)], { encoding: "utf8" }).split("\n")).toContain("bwrap");
    const adapterPath = path.resolve("node_modules/@zed-industries/claude-agent-acp/dist/index.js");
    const commandLines = tree.flatMap((pid) => {
      try {
        return [fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")];
      } catch {
        return []; // a short-lived tool of the CLI's, gone already
      }
    });
    expect(commandLines.some((line) => line[0] === process.execPath && line[1] === adapterPath)).toBe(true);
    const home = /(?:^|\0)HOME=([^\0]*)/.exec(fs.readFileSync(`/proc/${tree[0]}/environ`, "utf8"))![1];
    expect(path.dirname(home)).toBe(agentHomesDir());
    expect(fs.existsSync(path.join(home, ".claude", "settings.json"))).toBe(true);
    const cancelled = await world.server.call("POST", `${world.base()}/executions/${started.id}/cancel`, { token: world.token });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe("cancelled");
    await eventually(async () => (processesOf(started.id).length === 0 ? true : undefined), 20_000, "the process tree to end");
    // The runner removes the private HOME once it has reported the run (the cancel answers at once).
    await eventually(async () => (fs.existsSync(home) ? undefined : true), 20_000, "the private HOME to be removed");
  }, 180_000);
});

describe("a profile made from the old preset (npx in the task's worktree)", () => {
  it("starts the server's installed adapter instead of npx, so the run works", async () => {
    const created = await world.server.call("POST", `${world.base()}/agents`, {
      token: world.token,
      json: {
        name: "Claude Code (old preset)",
        kind: "acp",
        command: "npx",
        args: ["@zed-industries/claude-agent-acp@0.23.1"],
        env_passthrough: ["ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"],
      },
    });
    expect(created.status).toBe(201);
    const t = await task(world, "Old profile");
    const marker = world.model.script("old-preset", [{ text: "Started from the installation." }]);
    const started = await startRun(world, t.id, { instructions: `Say so. ${marker}`, agent_id: created.body.id });
    expect(await done(world, started.id)).toMatchObject({ status: "succeeded", error_message: null });
    expect(said(await entries(world, started.id))).toContain("Started from the installation.");
  }, 120_000);
});

describe("a preset whose CLI is not installed", () => {
  it("fails the run at once, with the install command in words", async () => {
    const opencode = await presetProfile(world, "opencode", {}, false);
    const t = await task(world, "No such CLI");
    const started = await startRun(world, t.id, { instructions: "Anything.", agent_id: opencode.id });
    const execution = await done(world, started.id);
    expect(execution.status).toBe("failed");
    expect(execution.error_message).toContain("`opencode` is not installed on the server");
    expect(execution.error_message).toContain("npm install -g opencode-ai");
  }, 60_000);

  it("refuses a profile naming a preset the server does not ship", async () => {
    const refused = await world.server.call("POST", `${world.base()}/agents`, {
      token: world.token,
      json: { name: "Nope", kind: "acp", command: "x", preset: "no-such-agent" },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.detail[0].loc).toEqual(["body", "preset"]);
  });
});

describe("what a profile carries", () => {
  it("gives Claude Code the profile's model (its settings.json) and system prompt addition (ACP session _meta)", async () => {
    const profile = await presetProfile(world, "claude-code", { model: "opus", system_prompt: "Sign every answer with -- the board." });
    const t = await task(world, "Model and prompt");
    const marker = world.model.script("model-prompt", [{ text: "Signed. -- the board" }]);
    const started = await startRun(world, t.id, { instructions: `Say something. ${marker}`, agent_id: profile.id });
    expect((await done(world, started.id)).status).toBe("succeeded");
    const [request] = world.model.played("model-prompt");
    expect(request.body.model).toMatch(/opus/);
    expect(JSON.stringify(request.body.system)).toContain("Sign every answer with -- the board.");
    expect((await runOf(world, t.id)).model).toMatch(/opus/);
  }, 120_000);
});

describe("quiet runs", () => {
  it("gives a running run's card its agent's last word and the silence threshold", async () => {
    const holds = await world.server.call("POST", `${world.base()}/agents`, {
      token: world.token,
      json: { name: "Holds", kind: "command", command: "sleep", args: ["30"] },
    });
    const t = await task(world, "Quiet card");
    const started = await startRun(world, t.id, { instructions: "Wait.", agent_id: holds.body.id });
    const card = await eventually(async () => {
      const got = await world.server.call("GET", `${world.base()}/tasks/${t.id}`, { token: world.token });
      return got.body.latest_run_status === "running" && got.body.latest_run_activity_at ? got.body : undefined;
    }, 30_000);
    expect(card.latest_run_silence_seconds).toBe(90);
    expect(Date.parse(card.latest_run_activity_at)).toBeGreaterThan(Date.now() - 60_000);
    await world.server.call("POST", `${world.base()}/executions/${started.id}/cancel`, { token: world.token });
    const after = await world.server.call("GET", `${world.base()}/tasks/${t.id}`, { token: world.token });
    expect(after.body).toMatchObject({ latest_run_status: "cancelled", latest_run_activity_at: null, latest_run_silence_seconds: null });
  }, 60_000);

  it("marks a run that succeeded with no message, no tool call and no change as finished with no output", async () => {
    const silent = await world.server.call("POST", `${world.base()}/agents`, {
      token: world.token,
      json: { name: "Says nothing", kind: "command", command: "true" },
    });
    const t = await task(world, "Nothing to say");
    const started = await startRun(world, t.id, { instructions: "Anything.", agent_id: silent.body.id });
    const execution = await done(world, started.id);
    expect(execution).toMatchObject({ status: "succeeded", silence_after_seconds: 90 });
    expect(await runOf(world, t.id)).toMatchObject({ status: "succeeded", no_output: true });
  }, 60_000);
});
