import { describe, expect, it } from "vitest";
import { totalUsage, usageText } from "@/lib/client/usage";

const usage = (
  fields: Partial<{ input_tokens: number; output_tokens: number; total_tokens: number; cost: { amount: number; currency: string } }>,
) => ({
  input_tokens: null,
  output_tokens: null,
  total_tokens: null,
  cost: null,
  ...fields,
});

describe("usage in words", () => {
  it("shows only what a run reported", () => {
    expect(usageText(null)).toBe("");
    expect(usageText(usage({ total_tokens: 1200 }))).toBe("1,200 tokens");
    expect(usageText(usage({ input_tokens: 1000, output_tokens: 50 }))).toBe("1,000 in / 50 out");
    expect(usageText(usage({ cost: { amount: 0.0123, currency: "USD" } }))).toBe("0.0123 USD");
  });

  it("totals a task's runs, per currency, and counts the runs that reported", () => {
    const total = totalUsage([
      { usage: usage({ total_tokens: 1000, cost: { amount: 0.5, currency: "USD" } }) },
      { usage: null },
      { usage: usage({ input_tokens: 200, output_tokens: 100, cost: { amount: 0.75, currency: "USD" } }) },
      { usage: usage({ cost: { amount: 2, currency: "EUR" } }) },
    ]);
    expect(total).toEqual({ text: "1,300 tokens · 1.25 USD · 2.00 EUR", reported: 3 });
    expect(totalUsage([{ usage: null }])).toEqual({ text: "", reported: 0 });
  });
});
