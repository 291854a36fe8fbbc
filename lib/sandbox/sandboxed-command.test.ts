import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { killGroup } from "@/lib/platform/processes";
import { sandboxedCommand, type SandboxRequest } from "@/lib/sandbox/sandboxed-command";

// The sandbox as the runner starts it (bubblewrap and socat are required by the test command). The
// runner reads an agent's output until its pipes close: they must close when the agent ends, not
// when the sandbox's network relays (which outlive the agent until the runner ends its group) do.

const work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sandboxed-command-")));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

function request(script: string): SandboxRequest {
  return {
    command: "/bin/sh",
    args: ["-c", script],
    cwd: work,
    env: { NODE_ENV: "test", PATH: process.env.PATH },
    networkAllow: [],
    network: "allowlist",
    // Nothing listens there: the relay to it is started all the same, and nothing connects.
    boardUrl: "http://127.0.0.1:39999",
    isDemo: false,
  };
}

/** Starts it as the runner does (its own group, piped stdio); resolves once its output has ended. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv, input = "") {
  const child = spawn(command, args, { cwd: work, env, detached: true, stdio: ["pipe", "pipe", "pipe"] });
  child.stdin.end(input);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
  return { pid: child.pid!, exited, closed, output: () => ({ stdout, stderr }) };
}

const groupMembers = (pid: number) =>
  execFileSync("ps", ["-o", "comm=", "-g", String(pid)], { encoding: "utf8" })
    .split("\n")
    .filter(Boolean);

describe("a sandboxed command's output", () => {
  it("ends when the agent does, while the network relays still run; input, output and exit status pass through", async () => {
    const sandboxed = await sandboxedCommand(request('read line; echo "out $line"; echo err >&2; exit 3'));
    expect(sandboxed.kind).toBe("bubblewrap");
    const started = run(sandboxed.command, sandboxed.args, sandboxed.env, "the instructions\n");
    try {
      expect(await started.exited).toBe(3);
      await started.closed;
      expect(started.output()).toEqual({ stdout: "out the instructions\n", stderr: "err\n" });
      // The relays were still there when the output ended: their end did not hold it.
      expect(groupMembers(started.pid)).toContain("socat");
    } finally {
      killGroup(started.pid, "SIGTERM");
      await sandboxed.cleanup();
    }
  });

  it("still carries bubblewrap's own messages, after it has ended", async () => {
    const sandboxed = await sandboxedCommand(request("exit 0"));
    // A mount whose source is missing: bwrap itself refuses to start the agent.
    const at = sandboxed.args.indexOf("bwrap");
    const args = [...sandboxed.args.slice(0, at + 1), "--ro-bind", path.join(work, "missing"), "/missing", ...sandboxed.args.slice(at + 1)];
    const started = run(sandboxed.command, args, sandboxed.env);
    try {
      expect(await started.exited).toBe(1);
      await started.closed;
      expect(started.output().stderr).toMatch(/^bwrap: Can't find source path .*missing/);
    } finally {
      killGroup(started.pid, "SIGTERM");
      await sandboxed.cleanup();
    }
  });
});
