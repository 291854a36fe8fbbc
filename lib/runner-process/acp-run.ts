import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { AgentSnapshot } from "@/lib/agents/resolve-run-agent";
import { agentPresets } from "@/lib/agents/presets";
import type { RunUsage } from "@/lib/runner-protocol";
import { agentCommand } from "@/lib/platform/runner-config";

// What the runner needs around one ACP turn: the agent to start, and what the agent reported about
// its usage and in its last words.

/** The profile kept on the execution when the run started; executions queued before profiles existed run as they would have then. */
export function agentOf(profile: unknown): AgentSnapshot {
  const kept = profile as AgentSnapshot | null;
  if (kept && typeof kept.command === "string") return kept;
  const line = agentCommand();
  if (line)
    return { name: "AGENT_COMMAND", kind: "command", command: "/bin/sh", args: ["-c", line], env_passthrough: [], inherit_env: true };
  const demo = agentPresets().find((preset) => preset.preset === "demo")!;
  return { name: demo.name, kind: "command", command: demo.command, args: demo.args, env_passthrough: [], inherit_env: true };
}

/**
 * Only figures the agent reported: tokens from the prompt's answer (ACP `usage`, or `_meta.usage`,
 * camelCase or snake_case), cost from the last `usage_update` (cumulative for the session) or the
 * answer. `usage_update.used` is the context window's fill, not consumption, so it is not a token count here.
 */
export class UsageTally {
  private input: number | null = null;
  private output: number | null = null;
  private total: number | null = null;
  private cost: RunUsage["cost"] = null;

  see(update: SessionUpdate) {
    if (update.sessionUpdate !== "usage_update") return;
    const cost = readCost(update.cost);
    if (cost) this.cost = cost;
  }

  seeResponse(usage: Record<string, unknown> | null) {
    if (!usage) return;
    this.input = int(usage.inputTokens ?? usage.input_tokens) ?? this.input;
    this.output = int(usage.outputTokens ?? usage.output_tokens) ?? this.output;
    this.total = int(usage.totalTokens ?? usage.total_tokens) ?? this.total;
    this.cost = readCost(usage.cost) ?? this.cost;
  }

  value(): RunUsage | null {
    if (this.input === null && this.output === null && this.total === null && this.cost === null) return null;
    return { input_tokens: this.input, output_tokens: this.output, total_tokens: this.total, cost: this.cost };
  }
}

const REPORT_MAX_CHARS = 64 * 1024;

/** The agent's last message (the text after its last tool call or plan), as the run's report when it wrote no report file. */
export class ReportText {
  private parts: string[] = [];
  private chars = 0;
  private closed = false;

  see(update: SessionUpdate) {
    if (update.sessionUpdate === "agent_message_chunk") {
      if (this.closed) {
        this.parts = [];
        this.chars = 0;
        this.closed = false;
      }
      if (update.content.type === "text" && this.chars < REPORT_MAX_CHARS) {
        this.parts.push(update.content.text);
        this.chars += update.content.text.length;
      }
    } else if (update.sessionUpdate === "tool_call" || update.sessionUpdate === "plan") {
      this.closed = true;
    }
  }

  text(): string | null {
    const text = this.parts.join("").slice(0, REPORT_MAX_CHARS).trim();
    return text || null;
  }
}

function int(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? Math.round(value) : null;
}

function readCost(value: unknown): RunUsage["cost"] {
  const cost = value as { amount?: unknown; currency?: unknown } | null | undefined;
  if (!cost || typeof cost.amount !== "number" || !Number.isFinite(cost.amount) || typeof cost.currency !== "string") return null;
  return { amount: cost.amount, currency: cost.currency };
}
