import { presetById } from "@/lib/agents/presets";
import type { AgentSnapshot } from "@/lib/agents/resolve-run-agent";
import { AgentNotInstalled, notInstalledMessage, type AgentLaunch } from "@/lib/agents/launch-agent";
import { CommandMissing, SandboxRefused, sandboxedCommand, type NetworkPolicy } from "@/lib/sandbox/sandboxed-command";

// The last step before an agent starts: its launch (lib/agents/launch-agent.ts) wrapped in the
// sandbox (lib/sandbox), with its profile's network policy. AGENT_COMMAND and the demo agent have
// no profile: AGENT_NETWORK_ALLOW (the operator's) is their allowlist, `*` meaning the full network.

/** `boardUrl`: the board's API as the job gives it (a runner on another machine reaches it there). */
export async function confineLaunch(
  agent: AgentSnapshot,
  launch: AgentLaunch,
  cwd: string,
  writable: string[],
  boardUrl: string,
  git?: { gitDir: string; readOnly: string[] },
): Promise<AgentLaunch> {
  const { networkAllow, network } = networkOf(agent);
  try {
    const confined = await sandboxedCommand({
      command: launch.command,
      args: launch.args,
      env: launch.env,
      cwd,
      git,
      home: launch.home ?? undefined,
      writable,
      networkAllow,
      network,
      boardUrl,
      isDemo: isDemoAgent(agent),
    });
    return {
      ...launch,
      command: confined.command,
      args: confined.args,
      env: confined.env,
      cleanup: () => {
        launch.cleanup();
        void confined.cleanup();
      },
    };
  } catch (error) {
    launch.cleanup();
    if (error instanceof SandboxRefused) throw new AgentNotInstalled(error.message);
    if (error instanceof CommandMissing) throw new AgentNotInstalled(notInstalledMessage(agent, error) ?? error.message);
    throw error;
  }
}

function networkOf(agent: AgentSnapshot): { networkAllow: string[]; network: NetworkPolicy } {
  if (agent.inherit_env) {
    const listed = (process.env.AGENT_NETWORK_ALLOW ?? "")
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean);
    return listed.includes("*") ? { networkAllow: [], network: "full" } : { networkAllow: listed, network: "allowlist" };
  }
  return { networkAllow: agent.network_allow ?? [], network: agent.network ?? "allowlist" };
}

/** The bundled demo agent (the server's own script), by its command: a profile made from the demo preset too. */
function isDemoAgent(agent: AgentSnapshot): boolean {
  const demo = presetById("demo")!;
  return agent.command === demo.command && agent.args.length === demo.args.length && agent.args.every((arg, i) => arg === demo.args[i]);
}
