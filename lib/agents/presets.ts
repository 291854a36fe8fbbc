import path from "node:path";
import type { z } from "zod";
import type { agentPresetResponse } from "@/lib/agents/schemas";

// Profiles people start from in Settings. Each ACP adapter is the agent vendor's own (or Zed's) and
// is started through npx, which uses a locally installed copy first. Credentials stay in the
// server's environment and reach the agent only through env_passthrough (docs/agents.md).

export function agentPresets(): z.output<typeof agentPresetResponse>[] {
  return [
    {
      preset: "claude-code",
      name: "Claude Code",
      kind: "acp",
      command: "npx",
      args: ["@zed-industries/claude-agent-acp"],
      env_passthrough: ["ANTHROPIC_API_KEY"],
      setup: "Set ANTHROPIC_API_KEY in the server's environment (or log in with `claude` as the server's user).",
    },
    {
      preset: "codex",
      name: "Codex",
      kind: "acp",
      command: "npx",
      args: ["@zed-industries/codex-acp"],
      env_passthrough: ["OPENAI_API_KEY"],
      setup: "Set OPENAI_API_KEY in the server's environment (or log in with `codex login` as the server's user).",
    },
    {
      preset: "gemini",
      name: "Gemini CLI",
      kind: "acp",
      command: "gemini",
      args: ["--experimental-acp"],
      env_passthrough: ["GEMINI_API_KEY"],
      setup: "Install the Gemini CLI (`npm install -g @google/gemini-cli`) and set GEMINI_API_KEY.",
    },
    {
      preset: "opencode",
      name: "OpenCode",
      kind: "acp",
      command: "opencode",
      args: ["acp"],
      env_passthrough: [],
      setup: "Install OpenCode and configure a provider with `opencode auth login` as the server's user.",
    },
    {
      preset: "demo",
      name: "Demo agent",
      kind: "command",
      // Absolute paths: the agent runs in the task's worktree, not in the server's directory.
      command: process.execPath,
      args: [path.join(/*turbopackIgnore: true*/ process.cwd(), "scripts", "demo-agent.mjs")],
      env_passthrough: [],
      setup: "Nothing: it ships with the server, changes nothing and says it is the demo.",
    },
  ];
}
