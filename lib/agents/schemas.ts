import { z } from "zod";
import { workspaceParams } from "@/lib/workspaces/schemas";
import { parseAllowEntry } from "@/lib/sandbox/allowlist";
import { SERVER_SECRET_NAME } from "@/lib/crypto/server-secret-name";

// Agent profiles: how the runner starts an agent. `acp` agents speak the Agent Client Protocol on
// stdio (lib/agents/drive-acp-agent.ts); `command` agents are any program that reads instructions on
// standard input and prints lines, as AGENT_COMMAND always was.

export const AGENT_KINDS = ["acp", "command"] as const;

const envName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, "An environment variable name")
  .refine((name) => !name.startsWith("TASKBOARD_") && !SERVER_SECRET_NAME.test(name), {
    message: "This variable is the server's own and is never passed to an agent",
  });
const noNul = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[^\0]*$/, "Must not contain a null character");

/** Where an agent's sandbox lets it connect (docs/runners.md): its allowlist, or the whole network. */
export const NETWORK_POLICIES = ["allowlist", "full"] as const;
const allowEntry = z
  .string()
  .max(260)
  .refine((entry) => parseAllowEntry(entry) !== null, { message: "A host or host:port, e.g. api.anthropic.com or 10.0.0.5:8080" });
const networkAllow = z.array(allowEntry).max(100);

/** A label a profile requires of its runner, as runners list theirs (docs/runners.md, "Labels"). */
export const runnerLabel = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_.:-]+$/, "letters, digits and _ . : - only");
const labels = z
  .array(runnerLabel)
  .max(20)
  .refine((list) => new Set(list).size === list.length, { message: "Each label once" });

/** The presets the server ships (lib/agents/presets.ts). */
export const PRESET_IDS = ["claude-code", "codex", "gemini", "opencode", "demo"] as const;
const presetId = z.enum(PRESET_IDS);

export const agentParams = workspaceParams.extend({ agent_id: z.string() });

/** A stored key's name: an environment variable the agent gets, never one the run's own (TASKBOARD_*) or the process's basics. */
export const agentKeyParams = agentParams.extend({
  name: z
    .string()
    .regex(/^[A-Z_][A-Z0-9_]{0,127}$/, "An environment variable name in capitals (ANTHROPIC_API_KEY)")
    .refine((name) => !name.startsWith("TASKBOARD_") && !RESERVED_KEY_NAMES.has(name), {
      message: "This variable is set by the runner for every agent and cannot be stored",
    }),
});
const RESERVED_KEY_NAMES = new Set(["PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "TERM"]);
export const MAX_STORED_KEYS = 10;

export const setAgentKeyBody = z.object({
  value: z.string().min(1).max(10_000).describe("The key. Stored sealed, passed only to this profile's runs, never shown again."),
});

export const createAgentBody = z.object({
  name: z.string().trim().min(1).max(100),
  kind: z.enum(AGENT_KINDS),
  command: noNul(1000).trim().min(1).describe("The program to start (no shell): e.g. `npx` or `gemini`."),
  args: z.array(noNul(1000)).max(50).default([]),
  env_passthrough: z
    .array(envName)
    .max(50)
    .default([])
    .describe("Names of the server's environment variables the agent receives (API keys)."),
  preset: presetId
    .nullable()
    .default(null)
    .describe("The shipped agent this profile starts (claude-code, codex, gemini): started from the server's own installation."),
  model: noNul(200).trim().min(1).nullable().default(null).describe("The agent's model setting (null: the agent's default)."),
  system_prompt: noNul(20_000).nullable().default(null).describe("Added to the agent's system prompt for every run."),
  network_allow: networkAllow
    .default([])
    .describe(
      "Hosts the agent may reach from its sandbox besides the board: `host` (ports 443 and 80), `host:port`, or `*.domain` for its subdomains.",
    ),
  network: z
    .enum(NETWORK_POLICIES)
    .default("allowlist")
    .describe("`allowlist`: only the board and network_allow; `full`: the whole network, this machine's ports included."),
  labels: labels
    .default([])
    .describe("Labels a runner must have, every one of them, to take this profile's runs (docker, gpu); none: any runner."),
  is_default: z.boolean().default(false),
});

export const updateAgentBody = z.object({
  name: createAgentBody.shape.name.optional(),
  kind: createAgentBody.shape.kind.optional(),
  command: createAgentBody.shape.command.optional(),
  args: z.array(noNul(1000)).max(50).optional(),
  env_passthrough: z.array(envName).max(50).optional(),
  preset: presetId.nullable().optional(),
  model: noNul(200).trim().min(1).nullable().optional(),
  system_prompt: noNul(20_000).nullable().optional(),
  network_allow: networkAllow.optional(),
  network: z.enum(NETWORK_POLICIES).optional(),
  labels: labels.optional(),
  is_default: z.boolean().optional(),
});

export const agentResponse = z.object({
  id: z.string(),
  workspace_id: z.string(),
  name: z.string(),
  kind: z.enum(AGENT_KINDS),
  command: z.string(),
  args: z.array(z.string()),
  env_passthrough: z.array(z.string()),
  preset: z.string().nullable(),
  model: z.string().nullable(),
  system_prompt: z.string().nullable(),
  network_allow: z.array(z.string()),
  network: z.enum(NETWORK_POLICIES),
  labels: z.array(z.string()).describe("Labels a runner must have to take this profile's runs."),
  is_default: z.boolean(),
  stored_keys: z.array(z.string()).describe("The names of the model keys stored on the profile; their values are never shown again."),
  readiness: z
    .object({
      ready: z.boolean(),
      problems: z.array(z.string()).describe("What stops its runs, in words (a program not installed, a missing key and where to set it)."),
    })
    .describe("Whether a run of this profile can start, as far as the server can tell."),
  created_at: z.string(),
  updated_at: z.string(),
});

export const agentPresetResponse = z.object({
  preset: z.string(),
  name: z.string(),
  kind: z.enum(AGENT_KINDS),
  command: z.string(),
  args: z.array(z.string()),
  env_passthrough: z.array(z.string()),
  network_allow: z.array(z.string()).describe("The vendor's API host, which the agent's sandbox must let it reach."),
  setup: z.string().describe("What the agent needs on the server (credentials, an installed CLI)."),
  key: z.string().nullable().describe("The model key the agent needs to start a turn (ANTHROPIC_API_KEY…), if any."),
  installed: z.boolean().describe("Whether the agent's program is installed where the server starts it from."),
  install: z.string().nullable().describe("The command that installs it, when it is not shipped with the server."),
});

export const fallbackAgentResponse = z.object({
  name: z.string().describe('"Demo agent", or "AGENT_COMMAND" when the server has one.'),
  demo: z.boolean().describe("True when it is the bundled demo agent, which changes nothing."),
  description: z.string(),
});

export type AgentProfileResponse = z.output<typeof agentResponse>;
export type AgentKind = (typeof AGENT_KINDS)[number];
