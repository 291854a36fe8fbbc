import { describe, expect, it } from "vitest";
import { RunLogModel, settlePermission } from "@/lib/client/run-log-model";
import type { LogEntry } from "@/lib/client/types";

// The run view's rows from a structured log: what an ACP agent and the runner write (docs/agents.md).

let seq = 0;
const entry = (type: string, update: Record<string, unknown>): LogEntry => ({ seq: seq++, at: "2026-01-01T00:00:00.000Z", type, update });
const say = (text: string) => entry("agent_message_chunk", { sessionUpdate: "agent_message_chunk", content: { type: "text", text } });

describe("RunLogModel", () => {
  it("merges message chunks, collapses thoughts, keeps the latest plan and updates tool calls in place", () => {
    seq = 0;
    const model = new RunLogModel();
    model.append([
      entry("prompt", { text: "Fix the bug" }),
      say("Looking at "),
      say("the task. "),
      entry("agent_thought_chunk", { content: { type: "text", text: "Maybe " } }),
      entry("agent_thought_chunk", { content: { type: "text", text: "the parser." } }),
      entry("plan", {
        entries: [
          { content: "Read", status: "in_progress" },
          { content: "Write", status: "pending" },
        ],
      }),
      entry("tool_call", { toolCallId: "w1", title: "Write a.md", kind: "edit", status: "in_progress", locations: [{ path: "/x/a.md" }] }),
      entry("plan", {
        entries: [
          { content: "Read", status: "completed" },
          { content: "Write", status: "in_progress" },
        ],
      }),
      entry("tool_call_update", { toolCallId: "w1", status: "completed", content: [{ type: "diff", path: "/x/a.md", newText: "hi" }] }),
      say("Done."),
      entry("usage_update", { used: 1200, size: 200000, cost: { amount: 0.01, currency: "USD" } }),
      entry("stop", { stop_reason: "end_turn" }),
    ]);
    expect(model.rows.map((row) => row.kind)).toEqual(["prompt", "message", "thought", "plan", "tool", "plan", "message", "stop"]);
    expect(model.rows[1]).toMatchObject({ text: "Looking at the task. " });
    expect(model.rows[2]).toMatchObject({ kind: "thought", text: "Maybe the parser." });
    expect(model.rows[4]).toMatchObject({
      kind: "tool",
      title: "Write a.md",
      toolKind: "edit",
      status: "completed",
      detail: "edited /x/a.md",
    });
    expect(model.plan).toEqual([
      { content: "Read", status: "completed", priority: undefined },
      { content: "Write", status: "in_progress", priority: undefined },
    ]);
    expect(model.usage).toEqual({ used: 1200, size: 200000, cost: { amount: 0.01, currency: "USD" } });
  });

  it("skips entries it already applied, so overlapping batches (catch-up and events) apply once", () => {
    seq = 0;
    const model = new RunLogModel();
    const batch = [entry("output", { stream: "stdout", text: "one" }), entry("output", { stream: "stderr", text: "two" })];
    expect(model.append(batch)).toBe(true);
    expect(model.append(batch)).toBe(false);
    expect(model.append([...batch, entry("output", { stream: "stdout", text: "three" })])).toBe(true);
    expect(model.rows.map((row) => (row.kind === "output" ? `${row.stream}:${row.text}` : row.kind))).toEqual([
      "stdout:one",
      "stderr:two",
      "stdout:three",
    ]);
    expect(model.nextSeq).toBe(3);
  });

  it("shows permission prompts as pending until answered, by a later entry or by the person here", () => {
    seq = 0;
    const model = new RunLogModel();
    const options = [
      { id: "allow-once", name: "Allow once", kind: "allow_once" },
      { id: "reject", name: "Reject", kind: "reject_once" },
    ];
    model.append([
      entry("permission", { question_id: "q1", title: "Run the test suite", options }),
      entry("permission", { question_id: "q2", title: "Delete build/", options }),
    ]);
    expect(model.pendingPermissions()).toEqual(["q1", "q2"]);
    expect(model.rows[0]).toMatchObject({ kind: "permission", options: ["Allow once", "Reject"], outcome: null });
    model.append([
      entry("permission", {
        question_id: "q1",
        title: "Run the test suite",
        options,
        outcome: { outcome: "selected", option_id: "allow-once", name: "Allow once" },
      }),
    ]);
    expect(model.rows).toHaveLength(2);
    expect(model.rows[0]).toMatchObject({ outcome: "Allow once" });
    expect(model.pendingPermissions()).toEqual(["q2"]);
    expect(settlePermission(model, "q2", "Reject")).toBe(true);
    expect(model.pendingPermissions()).toEqual([]);
    expect(model.rows[1]).toMatchObject({ outcome: "Reject" });
  });

  it("renders git steps, errors and unknown updates without dropping them", () => {
    seq = 0;
    const model = new RunLogModel();
    model.append([
      entry("git", { step: "merge", message: "2 conflicted files", files: ["a.ts", "b.ts"] }),
      entry("error", { message: "Authentication required" }),
      entry("available_commands_update", { sessionUpdate: "available_commands_update", availableCommands: [] }),
      entry("tool_call_update", { toolCallId: "never-seen", status: "failed", title: "Lost call" }),
    ]);
    expect(model.rows).toMatchObject([
      { kind: "git", step: "merge", files: ["a.ts", "b.ts"] },
      { kind: "error", message: "Authentication required" },
      { kind: "other", type: "available_commands_update", text: '{"availableCommands":[]}' },
      { kind: "tool", title: "Lost call", status: "failed" },
    ]);
  });

  it("applies 50,000 entries in one pass", () => {
    seq = 0;
    const model = new RunLogModel();
    const entries = Array.from({ length: 50_000 }, (_, i) =>
      i % 5 === 0 ? entry("tool_call", { toolCallId: `t${i}`, title: `Step ${i}`, kind: "read", status: "completed" }) : say(`chunk ${i} `),
    );
    model.append(entries);
    expect(model.nextSeq).toBe(50_000);
    // Each tool call breaks the message, so 10,000 tool rows and 10,000 merged messages.
    expect(model.rows).toHaveLength(20_000);
  });
});
