import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchAgent } from "@/lib/agents/launch-agent";
import type { AgentSnapshot } from "@/lib/agents/resolve-run-agent";
import { presetById } from "@/lib/agents/presets";
import { ensurePrivateDir, PrivateDirRefused } from "@/lib/platform/private-dir";

// Issue #35, finding 10: an agent's HOME is fresh per run under the runner's private directory, and
// a `~/.claude` an earlier run left as a symlink to the host is never read or written through, on
// the way into a run's HOME or back out of it.

const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "launch-agent-")));
const host = path.join(root, "host");
const previous = process.env.RUNNER_PRIVATE_DIR;
beforeAll(() => {
  process.env.RUNNER_PRIVATE_DIR = path.join(root, "private");
  fs.mkdirSync(path.join(host, "projects"), { recursive: true });
  fs.writeFileSync(path.join(host, "projects", "secret.txt"), "the host's\n");
});
afterAll(() => {
  if (previous === undefined) delete process.env.RUNNER_PRIVATE_DIR;
  else process.env.RUNNER_PRIVATE_DIR = previous;
  fs.rmSync(root, { recursive: true, force: true });
});

const preset = presetById("claude-code")!;
const claude: AgentSnapshot = {
  name: "Claude Code",
  kind: "acp",
  command: preset.command,
  args: preset.args,
  env_passthrough: [],
  inherit_env: false,
  preset: "claude-code",
};

describe("an agent's HOME", () => {
  it("is fresh per run under the runner's private directory, and never follows a symlinked ~/.claude from an earlier run", () => {
    const sessions = path.join(root, "private", "agent-sessions", "w", "t", "a");
    // An earlier run's sessions directory holds `.claude` as a link to the host.
    fs.mkdirSync(sessions, { recursive: true });
    fs.symlinkSync(host, path.join(sessions, ".claude"));
    const launch = launchAgent(claude, { NODE_ENV: "test" }, root, sessions);
    expect(path.dirname(launch.home!)).toBe(path.join(root, "private", "homes"));
    // Nothing of the host came in, and the settings were written inside the fresh HOME.
    expect(fs.existsSync(path.join(launch.home!, ".claude", "projects", "secret.txt"))).toBe(false);
    expect(fs.lstatSync(path.join(launch.home!, ".claude")).isDirectory()).toBe(true);
    expect(fs.readFileSync(path.join(launch.home!, ".claude", "settings.json"), "utf8")).toBe("{}");
    expect(fs.readdirSync(host)).toEqual(["projects"]);

    // The agent now leaves `~/.claude` as a link to the host: nothing of the host goes out with it.
    fs.rmSync(path.join(launch.home!, ".claude"), { recursive: true });
    fs.symlinkSync(host, path.join(launch.home!, ".claude"));
    fs.rmSync(sessions, { recursive: true });
    fs.mkdirSync(sessions, { recursive: true });
    launch.cleanup();
    expect(fs.existsSync(path.join(sessions, ".claude", "projects", "secret.txt"))).toBe(false);
    expect(fs.existsSync(launch.home!)).toBe(false);
    expect(fs.readFileSync(path.join(host, "projects", "secret.txt"), "utf8")).toBe("the host's\n");

    // A second run gets another HOME.
    const again = launchAgent(claude, { NODE_ENV: "test" }, root, sessions);
    expect(again.home).not.toBe(launch.home);
    again.cleanup();
  });
});

describe("the runner's private directory", () => {
  it("is made 0700, closed when left open, and refused when it is a symlink", () => {
    const dir = path.join(root, "state", "taskboard");
    ensurePrivateDir(dir);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    fs.chmodSync(dir, 0o777);
    ensurePrivateDir(dir);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    const planted = path.join(root, "state", "planted");
    fs.symlinkSync(host, planted);
    expect(() => ensurePrivateDir(planted)).toThrow(PrivateDirRefused);
  });

  it("is refused when another user made it first", () => {
    const dir = path.join(root, "state", "someone-elses");
    fs.mkdirSync(dir, { mode: 0o700 });
    // As seen by a runner whose user is not the directory's owner.
    const owner = fs.statSync(dir).uid;
    expect(() => ensurePrivateDir(dir, owner + 1)).toThrow(new RegExp(`belongs to another user \\(uid ${owner}\\)`));
  });
});
