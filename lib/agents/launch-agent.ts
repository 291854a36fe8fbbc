import fs from "node:fs";
import path from "node:path";
import type { AgentSnapshot } from "@/lib/agents/resolve-run-agent";
import { installHint, presetById, presetOfCommand, shippedBin, type Preset } from "@/lib/agents/presets";
import { sandboxKind } from "@/lib/sandbox/mode";
import { throughSymlink } from "@/lib/platform/private-dir";
import { agentHomesDir } from "@/lib/platform/runner-config";

// Everything about starting one agent process, in one place (a later runner process takes it over
// whole): which program, with which arguments and environment, and the agent's private HOME.
//
// A profile's agent gets a fresh temporary HOME per run, deleted afterwards, so nothing of the
// server's user (its ~/.claude, ~/.codex, shell history, keys) reaches it and nothing one run leaves
// there reaches the next. The shipped presets write their agent's own configuration into it: the
// model (Claude Code's settings.json, Codex's config.toml, Gemini's settings.json), the provider or
// base URL (a company gateway) from the variables passed through, and the profile's system prompt
// addition (Codex's AGENTS.md, Gemini's GEMINI.md; Claude Code gets it through ACP, `sessionMeta`).

export interface AgentLaunch {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Sent as `_meta` of session/new (Claude Code's adapter reads `systemPrompt` there). */
  sessionMeta: Record<string, unknown> | null;
  /** The private HOME, or null for an agent that keeps the server's environment (the sandbox gives it one). */
  home: string | null;
  /** Removes the private HOME; safe to call twice. */
  cleanup: () => void;
}

/** The agent cannot be started here; the message says how to install it. */
export class AgentNotInstalled extends Error {}

/** Where each shipped agent keeps its sessions under HOME, so a follow-up run can continue one. */
const SESSION_DIRS: Record<string, string[]> = {
  "claude-code": [".claude/projects"],
  codex: [".codex/sessions"],
  gemini: [".gemini/tmp"],
};

/**
 * `sessions`: a directory of the task's own (outside DATA_DIR and the worktree) where the agent's
 * session files wait between runs of the same task and profile. They are copied into the fresh
 * HOME before the run and back after it; nothing else of a HOME outlives its run.
 */
export function launchAgent(agent: AgentSnapshot, env: NodeJS.ProcessEnv, cwd: string, sessions?: string): AgentLaunch {
  const shipped = shippedPreset(agent);
  let command = agent.command;
  let args = agent.args;
  if (shipped?.preset.package) {
    const bin = shippedBin(shipped.preset);
    if (!bin) throw new AgentNotInstalled(`${shipped.preset.name} is not installed on the server: ${installHint(shipped.preset)}`);
    command = process.execPath;
    args = [bin, ...shipped.args];
  }
  if (agent.inherit_env) return { command, args, env, sessionMeta: null, home: null, cleanup: () => {} };

  fs.mkdirSync(agentHomesDir(), { recursive: true, mode: 0o700 });
  const home = fs.mkdtempSync(path.join(agentHomesDir(), "home-"));
  const kept = SESSION_DIRS[shipped?.preset.preset ?? ""] ?? [];
  const cleanup = () => {
    if (!fs.existsSync(home)) return;
    if (sessions) for (const dir of kept) copyDir(home, sessions, dir);
    fs.rmSync(home, { recursive: true, force: true, maxRetries: 5 }); // the agent's last writes may still land while its group ends
  };
  try {
    if (sessions) for (const dir of kept) copyDir(sessions, home, dir);
    const private_: NodeJS.ProcessEnv = { ...env, HOME: home, XDG_CONFIG_HOME: path.join(home, ".config") };
    const preset = shipped?.preset.preset ?? null;
    let sessionMeta: Record<string, unknown> | null = null;
    if (preset === "claude-code") {
      write(home, ".claude/settings.json", JSON.stringify(agent.model ? { model: agent.model } : {}, null, 2));
      if (agent.system_prompt) sessionMeta = { systemPrompt: { append: agent.system_prompt } };
    } else if (preset === "codex") {
      // Codex needs its CODEX_HOME outside TMPDIR (or it refuses to install its sandbox helper, and
      // every command fails), so its temporary files stay in its HOME too.
      private_.CODEX_HOME = path.join(home, ".codex");
      private_.TMPDIR = path.join(home, "tmp");
      fs.mkdirSync(private_.TMPDIR, { mode: 0o700 });
      write(home, ".codex/config.toml", codexConfig(agent, env, cwd));
      if (agent.system_prompt) write(home, ".codex/AGENTS.md", agent.system_prompt);
    } else if (preset === "gemini") {
      write(home, ".gemini/settings.json", JSON.stringify(geminiSettings(agent), null, 2));
      if (agent.system_prompt) write(home, ".gemini/GEMINI.md", agent.system_prompt);
    }
    return { command, args, env: private_, sessionMeta, home, cleanup };
  } catch (error) {
    cleanup();
    throw error;
  }
}

/** A start that failed because the program is missing, in words with the install command. */
export function notInstalledMessage(agent: AgentSnapshot, error: NodeJS.ErrnoException): string | null {
  if (error.code !== "ENOENT") return null;
  const preset = presetById(agent.preset) ?? presetOfCommand(agent.command, agent.args)?.preset;
  const hint = preset ? installHint(preset) : "install it on the server's PATH, or give the profile its absolute path";
  return `${agent.name}: \`${agent.command}\` is not installed on the server: ${hint}`;
}

function shippedPreset(agent: AgentSnapshot): { preset: Preset; args: string[] } | null {
  const preset = presetById(agent.preset);
  if (preset?.package) {
    // A profile made from the preset keeps the preset's symbolic command; its extra args follow.
    const extra = agent.command === preset.command ? agent.args.filter((arg) => !preset.args.includes(arg)) : [];
    return { preset, args: [...preset.args, ...extra] };
  }
  if (agent.preset) return null;
  const legacy = presetOfCommand(agent.command, agent.args);
  return legacy?.preset.package ? { preset: legacy.preset, args: [...legacy.preset.args, ...legacy.args] } : null;
}

/**
 * Copies a session directory between a run's HOME and the task's sessions directory. An agent may
 * leave `~/.claude` (or the directory itself) as a symlink to somewhere on the host: nothing is read
 * or written through a symlink on either side (links inside are copied as links, never followed).
 */
function copyDir(fromRoot: string, toRoot: string, relative: string) {
  const [from, to] = [path.join(fromRoot, relative), path.join(toRoot, relative)];
  if (throughSymlink(fromRoot, from) || !fs.lstatSync(from).isDirectory()) return;
  fs.rmSync(to, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(to), { recursive: true, mode: 0o700 });
  if (throughSymlink(toRoot, path.dirname(to))) return;
  fs.cpSync(from, to, { recursive: true, verbatimSymlinks: true });
}

/** Writes a configuration file into the fresh HOME, never through a symlink (O_NOFOLLOW, and no linked folder on the way). */
function write(home: string, relative: string, content: string) {
  const file = path.join(home, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  if (throughSymlink(home, path.dirname(file))) throw new Error(`${path.dirname(file)} is a symlink: ${relative} was not written`);
  const handle = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_TRUNC | fs.constants.O_NOFOLLOW, 0o600);
  try {
    fs.writeFileSync(handle, content);
  } finally {
    fs.closeSync(handle);
  }
}

/**
 * Codex's provider is always ours, so OPENAI_BASE_URL (which Codex itself ignores) reaches it: the
 * gateway when the profile passes one through, else OpenAI. It asks before any command that is not
 * read-only (`untrusted`), each question a permission on the board.
 */
function codexConfig(agent: AgentSnapshot, env: NodeJS.ProcessEnv, cwd: string): string {
  const baseUrl = env.OPENAI_BASE_URL?.trim() || "https://api.openai.com/v1";
  const lines = [
    ...(agent.model ? [`model = ${toml(agent.model)}`] : []),
    `model_provider = "taskboard"`,
    `approval_policy = "untrusted"`,
    // Inside our sandbox Codex's own (bubblewrap again) cannot mount its /proc, and every command
    // would fail: ours confines it instead (docs/runners.md). Unconfined, Codex's own applies.
    `sandbox_mode = ${sandboxKind() === "bubblewrap" ? `"danger-full-access"` : `"workspace-write"`}`,
    "",
    "[model_providers.taskboard]",
    `name = "OpenAI (through the task board's profile)"`,
    `base_url = ${toml(baseUrl)}`,
    `env_key = "OPENAI_API_KEY"`,
    `wire_api = "responses"`,
    "requires_openai_auth = false",
    "supports_websockets = false",
    "",
    `[projects.${toml(cwd)}]`,
    `trust_level = "trusted"`,
    "",
  ];
  return lines.join("\n");
}

function geminiSettings(agent: AgentSnapshot) {
  return {
    security: { auth: { selectedType: "gemini-api-key" } },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
    // A fixed model: the default `auto` makes an extra classification call per turn.
    model: { name: agent.model ?? "gemini-2.5-pro" },
  };
}

function toml(value: string): string {
  return JSON.stringify(value);
}
