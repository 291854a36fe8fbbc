import type { Tx } from "@/lib/db/client";
import { notFound } from "@/lib/platform/errors";
import type { z } from "zod";
import type { AgentKind, fallbackAgentResponse } from "@/lib/agents/schemas";
import { agentPresets } from "@/lib/agents/presets";
import { agentCommand } from "@/lib/platform/runner-config";

// Which agent a run uses, decided when it starts and kept on the execution (agent_profile), so a
// profile changed or deleted later does not change a run already queued: the named profile, else
// the workspace's default profile, else AGENT_COMMAND as a command profile, else the demo agent.

export interface AgentSnapshot {
  name: string;
  kind: AgentKind;
  command: string;
  args: string[];
  env_passthrough: string[];
  /**
   * True for AGENT_COMMAND and the demo agent: they get the server's environment without its
   * secrets, as AGENT_COMMAND always did. A profile's agent gets only its env_passthrough.
   */
  inherit_env: boolean;
  /** The shipped agent a profile starts (lib/agents/presets.ts), and what the person set in it. Absent on older executions. */
  preset?: string | null;
  model?: string | null;
  system_prompt?: string | null;
  /** The hosts the sandbox lets it reach, and `full` for the whole network (absent on older executions: none, allowlist). */
  network_allow?: string[];
  network?: "allowlist" | "full";
  /** Labels the runner that takes the run must have (the claim filters on them; absent: none). */
  labels?: string[];
}

export interface RunAgent {
  agentId: string | null;
  agentName: string;
  snapshot: AgentSnapshot;
}

export async function resolveRunAgent(tx: Tx, workspaceId: string, agentId: string | null | undefined): Promise<RunAgent> {
  const profile = agentId
    ? await tx.agentProfile.findFirst({ where: { id: agentId, workspaceId } })
    : await tx.agentProfile.findFirst({ where: { workspaceId, isDefault: true } });
  if (agentId && !profile) throw notFound("Agent");
  if (profile) {
    return {
      agentId: profile.id,
      agentName: profile.name,
      snapshot: {
        name: profile.name,
        kind: profile.kind as AgentKind,
        command: profile.command,
        args: profile.args,
        env_passthrough: profile.envPassthrough,
        inherit_env: false,
        preset: profile.preset,
        model: profile.model,
        system_prompt: profile.systemPrompt,
        network_allow: profile.networkAllow,
        network: profile.network as "allowlist" | "full",
        labels: profile.labels,
      },
    };
  }
  return { agentId: null, ...fallbackAgent() };
}

/** The agent of a run with no profile to use: AGENT_COMMAND when the server has one, else the demo agent. */
export function fallbackAgent(): Omit<RunAgent, "agentId"> {
  const line = agentCommand();
  if (line) {
    return {
      agentName: "AGENT_COMMAND",
      snapshot: { name: "AGENT_COMMAND", kind: "command", command: "/bin/sh", args: ["-c", line], env_passthrough: [], inherit_env: true },
    };
  }
  const demo = agentPresets().find((preset) => preset.preset === "demo")!;
  return {
    agentName: demo.name,
    snapshot: { name: demo.name, kind: "command", command: demo.command, args: demo.args, env_passthrough: [], inherit_env: true },
  };
}

/** What the Run dialog offers when the workspace has no profile: which agent that is, and whether it is the demo. */
export function describeFallbackAgent(): z.output<typeof fallbackAgentResponse> {
  const demo = !agentCommand();
  return {
    name: fallbackAgent().agentName,
    demo,
    description: demo
      ? "The bundled demo agent: it prints progress and changes nothing. Add a real agent in Settings → Agents."
      : "The server's AGENT_COMMAND.",
  };
}
