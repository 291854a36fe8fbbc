import type { RunUsage } from "@/lib/client/types";

// Usage as agents reported it, in words. A figure the agent did not report stays out: nothing
// here estimates (the rule, docs/agents.md).

/** "12,345 tokens · 0.0123 USD", or "" when the run reported nothing. */
export function usageText(usage: RunUsage | null | undefined): string {
  if (!usage) return "";
  const parts: string[] = [];
  if (usage.total_tokens != null) parts.push(`${usage.total_tokens.toLocaleString()} tokens`);
  else if (usage.input_tokens != null || usage.output_tokens != null) {
    parts.push(`${(usage.input_tokens ?? 0).toLocaleString()} in / ${(usage.output_tokens ?? 0).toLocaleString()} out`);
  }
  if (usage.cost) parts.push(costText(usage.cost));
  return parts.join(" · ");
}

/**
 * A task's total over its runs: tokens summed over the runs that reported a token figure, cost
 * summed per currency; `reported` says how many runs reported anything, so a partial total is
 * never mistaken for the whole.
 */
export function totalUsage(runs: { usage: RunUsage | null }[]): { text: string; reported: number } {
  let tokens: number | null = null;
  const costs = new Map<string, number>();
  let reported = 0;
  for (const { usage } of runs) {
    if (!usage) continue;
    const runTokens =
      usage.total_tokens ??
      (usage.input_tokens != null || usage.output_tokens != null ? (usage.input_tokens ?? 0) + (usage.output_tokens ?? 0) : null);
    if (runTokens == null && !usage.cost) continue;
    reported += 1;
    if (runTokens != null) tokens = (tokens ?? 0) + runTokens;
    if (usage.cost) costs.set(usage.cost.currency, (costs.get(usage.cost.currency) ?? 0) + usage.cost.amount);
  }
  const parts: string[] = [];
  if (tokens != null) parts.push(`${tokens.toLocaleString()} tokens`);
  for (const [currency, amount] of costs) parts.push(costText({ amount, currency }));
  return { text: parts.join(" · "), reported };
}

export function costText(cost: { amount: number; currency: string }): string {
  return `${cost.amount.toFixed(cost.amount < 1 ? 4 : 2)} ${cost.currency}`;
}
