import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { InitializeResponse, RequestPermissionRequest, SessionUpdate } from "@agentclientprotocol/sdk";
import { AcpError, driveAcpAgent, type DriveAcpOptions } from "@/lib/agents/drive-acp-agent";

// The driver against two real ACP peers: our fake agent (written with the SDK's agent side) and
// Claude Code's real adapter from npm, which gets as far as it can without credentials.

const FAKE_AGENT = path.resolve("tests/fixtures/fake-acp-agent.mjs");
const CLAUDE_ADAPTER = path.resolve("node_modules/@zed-industries/claude-agent-acp/dist/index.js");
const children: ReturnType<typeof spawn>[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("driveAcpAgent with the fake agent", () => {
  it("streams updates in order, writes in the worktree, and waits for the permission answer", async () => {
    const cwd = tempDir();
    const updates: SessionUpdate[] = [];
    const permissions: RequestPermissionRequest[] = [];
    const outcome = await drive(cwd, "Make the change.", {
      onUpdate: (update) => updates.push(update),
      onPermission: async (request) => {
        permissions.push(request);
        return { optionId: request.options[1].optionId };
      },
    });

    expect(outcome.stopReason).toBe("end_turn");
    expect(outcome.resumed).toBe(false);
    expect(fs.readFileSync(path.join(cwd, "FAKE_AGENT.md"), "utf8")).toBe("Edited by the fake ACP agent.\n");
    expect(permissions).toHaveLength(1);
    expect(permissions[0].options.map((option) => option.name)).toEqual(["Allow once", "Always allow", "Reject"]);
    const kinds = updates.map((update) => update.sessionUpdate);
    expect(kinds[0]).toBe("agent_message_chunk");
    expect(kinds).toContain("plan");
    expect(kinds.indexOf("tool_call")).toBeLessThan(kinds.indexOf("tool_call_update"));
    expect(kinds).toContain("usage_update");
    const text = updates.flatMap((u) => (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text" ? [u.content.text] : []));
    expect(text.join("")).toContain("Permission answered: allow-always");
  });

  it("continues an earlier session with session/load", async () => {
    const cwd = tempDir();
    const first = await drive(cwd, "@fake write a.txt one");
    const updates: SessionUpdate[] = [];
    const second = await drive(cwd, "@fake write b.txt two", { resumeSessionId: first.sessionId, onUpdate: (u) => updates.push(u) });
    expect(second).toMatchObject({ sessionId: first.sessionId, resumed: true, stopReason: "end_turn" });
    const firstText = updates.find((u) => u.sessionUpdate === "agent_message_chunk");
    expect(firstText).toMatchObject({ content: { text: "Continuing the earlier session. " } });
  });

  it("cancel answers a pending permission with cancelled and ends the turn as cancelled", async () => {
    const cwd = tempDir();
    const controller = new AbortController();
    let asked = false;
    const outcome = await drive(cwd, "@fake permission\n@fake write never.txt no", {
      signal: controller.signal,
      onPermission: (_request, signal) => {
        asked = true;
        setTimeout(() => controller.abort(), 50);
        return new Promise((resolve) => signal.addEventListener("abort", () => resolve({ optionId: null })));
      },
    });
    expect(asked).toBe(true);
    expect(outcome.stopReason).toBe("cancelled");
    expect(fs.existsSync(path.join(cwd, "never.txt"))).toBe(false);
  });

  it("refuses file requests outside the worktree, through .. and through a symlink", async () => {
    const cwd = tempDir();
    const outside = tempDir();
    fs.writeFileSync(path.join(outside, "secret"), "server secret");
    fs.symlinkSync(path.join(outside, "secret"), path.join(cwd, "link"));
    fs.symlinkSync(outside, path.join(cwd, "dirlink"));

    for (const target of [`../${path.basename(outside)}/secret`, "link", "dirlink/secret", path.join(outside, "secret")]) {
      await expect(drive(cwd, `@fake read ${target}`)).rejects.toThrow(/Refused: .* (is outside the task's worktree|is a symbolic link)/);
    }
    await expect(drive(cwd, "@fake write dirlink/planted.txt x")).rejects.toThrow(/outside the task's worktree/);
    expect(fs.existsSync(path.join(outside, "planted.txt"))).toBe(false);
    await expect(drive(cwd, "@fake write ../escaped.txt x")).rejects.toThrow(/outside the task's worktree/);
  });

  it("answers a read of a missing file in the worktree with empty content (Gemini CLI reads before it creates), and still refuses one outside", async () => {
    const cwd = tempDir();
    expect((await drive(cwd, "@fake read not-yet.txt")).stopReason).toBe("end_turn");
    await expect(drive(cwd, "@fake read ../missing-outside.txt")).rejects.toThrow(/outside the task's worktree/);
  });

  it("reports an agent that exits mid-turn in words", async () => {
    const cwd = tempDir();
    const child = spawnAgent(process.execPath, ["-e", "process.stdin.once('data', () => process.exit(3))"], cwd);
    await expect(run(child, cwd, "hello")).rejects.toThrow(/exited before finishing its turn \(exit code 3\)/);
  });
});

describe("driveAcpAgent with the real Claude Code adapter (no credentials, no network)", () => {
  it("completes the handshake and shows session/new's error in words", async () => {
    const cwd = tempDir();
    const child = spawnAgent(process.execPath, [CLAUDE_ADAPTER], cwd, { HOME: cwd, ANTHROPIC_API_KEY: "" });
    let initialized: InitializeResponse | null = null;
    const error = await run(child, cwd, "hello", { onInitialize: (response) => (initialized = response) }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AcpError);
    // The adapter answers initialize (protocol 1), then fails the session without a model to talk to.
    expect(initialized).toMatchObject({ protocolVersion: 1, agentCapabilities: { loadSession: true } });
    expect((error as Error).message).toBe("Internal error: Query closed before response received");
  }, 60_000);
});

function tempDir() {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "acp-test-")));
  dirs.push(dir);
  return dir;
}

function spawnAgent(command: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] });
  child.stderr?.resume();
  children.push(child);
  return child;
}

function drive(cwd: string, instructions: string, options: Partial<DriveAcpOptions> = {}) {
  return run(spawnAgent(process.execPath, [FAKE_AGENT], cwd), cwd, instructions, options);
}

function run(child: ReturnType<typeof spawn>, cwd: string, instructions: string, options: Partial<DriveAcpOptions> = {}) {
  return driveAcpAgent({
    child,
    cwd,
    instructions,
    onUpdate: () => {},
    onPermission: async (request) => ({ optionId: request.options[0].optionId }),
    signal: new AbortController().signal,
    ...options,
  });
}
