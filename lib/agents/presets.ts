import fs from "node:fs";
import path from "node:path";
import type { z } from "zod";
import type { agentPresetResponse, PRESET_IDS } from "@/lib/agents/schemas";

// Profiles people start from in Settings. Claude Code, Codex and Gemini CLI ship with the server
// (package.json dependencies) and are started from the server's own installation by their resolved
// path: never through npx in the task's worktree, never from the network. Credentials stay in the
// server's environment and reach the agent only through env_passthrough (docs/agents.md).

export type PresetId = (typeof PRESET_IDS)[number];

export interface Preset {
  preset: PresetId;
  name: string;
  /** The npm package the server ships the agent in, and its bin. */
  package?: { name: string; version: string; bin: string };
  /** What to run when the agent is not shipped: a program on the server's PATH. */
  command: string;
  args: string[];
  env_passthrough: string[];
  /** The model key the agent cannot start a turn without (stored on the profile, or in the server's environment). */
  key?: string;
  /** The vendor's API host, for the profile's network_allow. */
  network_allow: string[];
  setup: string;
  /** How to install it, in words, when it is missing. */
  install: string | null;
}

const PRESETS: Preset[] = [
  {
    preset: "claude-code",
    name: "Claude Code",
    package: { name: "@zed-industries/claude-agent-acp", version: "0.23.1", bin: "claude-agent-acp" },
    command: "claude-agent-acp",
    args: [],
    env_passthrough: ["ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"],
    key: "ANTHROPIC_API_KEY",
    network_allow: ["api.anthropic.com"],
    setup: "Store ANTHROPIC_API_KEY on the profile, or set it in the server's environment (ANTHROPIC_BASE_URL for a company gateway).",
    install: null,
  },
  {
    preset: "codex",
    name: "Codex",
    package: { name: "@zed-industries/codex-acp", version: "0.16.0", bin: "codex-acp" },
    command: "codex-acp",
    args: [],
    env_passthrough: ["OPENAI_API_KEY", "OPENAI_BASE_URL"],
    key: "OPENAI_API_KEY",
    network_allow: ["api.openai.com"],
    setup: "Store OPENAI_API_KEY on the profile, or set it in the server's environment (OPENAI_BASE_URL for a company gateway).",
    install: null,
  },
  {
    preset: "gemini",
    name: "Gemini CLI",
    package: { name: "@google/gemini-cli", version: "0.61.0", bin: "gemini" },
    command: "gemini",
    args: ["--acp"],
    env_passthrough: ["GEMINI_API_KEY", "GOOGLE_GEMINI_BASE_URL"],
    key: "GEMINI_API_KEY",
    network_allow: ["generativelanguage.googleapis.com"],
    setup: "Store GEMINI_API_KEY on the profile, or set it in the server's environment (GOOGLE_GEMINI_BASE_URL for a company gateway).",
    install: null,
  },
  {
    preset: "opencode",
    name: "OpenCode",
    command: "opencode",
    args: ["acp"],
    env_passthrough: [],
    network_allow: [],
    setup: "Install OpenCode on the server's PATH and give it a provider through its environment.",
    install: "npm install -g opencode-ai",
  },
  {
    preset: "demo",
    name: "Demo agent",
    // Absolute paths: the agent runs in the task's worktree, not in the server's directory.
    command: process.execPath,
    args: [path.join(/*turbopackIgnore: true*/ process.cwd(), "scripts", "demo-agent.mjs")],
    env_passthrough: [],
    network_allow: [],
    setup: "Nothing: it ships with the server, changes nothing and says it is the demo.",
    install: null,
  },
];

export function presetById(id: string | null | undefined): Preset | null {
  return PRESETS.find((preset) => preset.preset === id) ?? null;
}

/**
 * The shipped preset an older profile meant: `npx <package>[@version]` (what the presets said
 * before they were shipped) or the bare `gemini`, so such profiles start from the installation too.
 */
export function presetOfCommand(command: string, args: string[]): { preset: Preset; args: string[] } | null {
  if (path.basename(command) === "npx") {
    const rest = args.filter((arg) => arg !== "-y" && arg !== "--yes");
    const name = rest[0]?.replace(/(.)@[^/]*$/, "$1");
    const preset = PRESETS.find((candidate) => candidate.package?.name === name);
    return preset ? { preset, args: rest.slice(1) } : null;
  }
  const preset = PRESETS.find((candidate) => candidate.package && candidate.command === command);
  return preset ? { preset, args: args.filter((arg) => arg !== "--experimental-acp") } : null;
}

/** The absolute path of a shipped package's bin script, or null when it is not installed. */
export function shippedBin(preset: Preset): string | null {
  if (!preset.package) return null;
  for (let dir = /*turbopackIgnore: true*/ process.cwd(); ; dir = path.dirname(dir)) {
    const root = path.join(dir, "node_modules", ...preset.package.name.split("/"));
    try {
      const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { bin?: Record<string, string> | string };
      const bin = typeof manifest.bin === "string" ? manifest.bin : manifest.bin?.[preset.package.bin];
      if (bin && fs.existsSync(path.join(root, bin))) return path.join(root, bin);
    } catch {
      // not here: look further up
    }
    if (path.dirname(dir) === dir) return null;
  }
}

/** How to install a preset's agent, in words. */
export function installHint(preset: Preset): string {
  if (preset.package)
    return `run \`npm install ${preset.package.name}@${preset.package.version}\` in the server's directory (it ships with the server; \`npm ci\` installs it)`;
  return preset.install ? `install it on the server's PATH: \`${preset.install}\`` : "install it on the server's PATH";
}

export function agentPresets(): z.output<typeof agentPresetResponse>[] {
  return PRESETS.map((preset) => ({
    preset: preset.preset,
    name: preset.name,
    kind: preset.preset === "demo" ? "command" : "acp",
    command: preset.command,
    args: preset.args,
    env_passthrough: preset.env_passthrough,
    network_allow: preset.network_allow,
    setup: preset.setup,
    key: preset.key ?? null,
    installed: preset.package ? shippedBin(preset) !== null : preset.preset === "demo" || onPath(preset.command),
    install: preset.package || preset.preset === "demo" ? null : preset.install,
  }));
}

function onPath(command: string): boolean {
  if (path.isAbsolute(command)) return fs.existsSync(command);
  return (process.env.PATH ?? "").split(path.delimiter).some((dir) => dir && fs.existsSync(path.join(dir, command)));
}
