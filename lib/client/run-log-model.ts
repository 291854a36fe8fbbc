import type { LogEntry } from "@/lib/client/types";

// Turns a run's structured log (ACP session updates and the runner's own entries) into the rows the
// run view shows. Built once from the catch-up read and then appended to in place, so 50,000
// entries cost one pass and each streamed batch costs only its own entries: message and thought
// chunks join the row before them, a tool call's updates change its row, the latest plan is kept
// aside as the checklist.

export type PlanStep = { content: string; status: string; priority?: string };

export type LogRow =
  | { kind: "message"; key: number; text: string }
  | { kind: "thought"; key: number; text: string }
  | { kind: "tool"; key: number; id: string; title: string; toolKind: string; status: string; detail: string }
  | { kind: "plan"; key: number; steps: number }
  | { kind: "permission"; key: number; questionId: string; title: string; options: string[]; outcome: string | null }
  | { kind: "output"; key: number; stream: string; text: string }
  | { kind: "git"; key: number; step: string; message: string; files: string[] }
  | { kind: "prompt"; key: number; text: string }
  | { kind: "stop"; key: number; reason: string }
  | { kind: "error"; key: number; message: string }
  | { kind: "other"; key: number; type: string; text: string };

export interface ReportedUsage {
  used: number | null;
  size: number | null;
  cost: { amount: number; currency: string } | null;
}

export class RunLogModel {
  readonly rows: LogRow[] = [];
  plan: PlanStep[] = [];
  /** The last usage_update the agent sent (context window use and cost), if any. */
  usage: ReportedUsage | null = null;
  /** The next seq this model expects: every entry below it has been applied. */
  nextSeq = 0;
  private readonly tools = new Map<string, Extract<LogRow, { kind: "tool" }>>();

  /** Applies entries in seq order; entries already applied are skipped, so batches may overlap. */
  append(entries: readonly LogEntry[]): boolean {
    let changed = false;
    for (const entry of entries) {
      if (entry.seq < this.nextSeq) continue;
      this.apply(entry);
      this.nextSeq = entry.seq + 1;
      changed = true;
    }
    return changed;
  }

  /** Open permission prompts' question ids, newest last. */
  pendingPermissions(): string[] {
    return this.rows.flatMap((row) => (row.kind === "permission" && row.outcome === null ? [row.questionId] : []));
  }

  private apply({ seq, type, update }: LogEntry) {
    const last = this.rows[this.rows.length - 1];
    switch (type) {
      case "agent_message_chunk":
      case "user_message_chunk":
      case "agent_thought_chunk": {
        const kind = type === "agent_thought_chunk" ? "thought" : "message";
        const text = contentText(update.content);
        if (last && last.kind === kind) last.text += text;
        else this.rows.push({ kind, key: seq, text });
        return;
      }
      case "tool_call": {
        const id = str(update.toolCallId) ?? `tool-${seq}`;
        const row = {
          kind: "tool" as const,
          key: seq,
          id,
          title: str(update.title) ?? "Tool call",
          toolKind: str(update.kind) ?? "other",
          status: str(update.status) ?? "pending",
          detail: toolDetail(update),
        };
        this.tools.set(id, row);
        this.rows.push(row);
        return;
      }
      case "tool_call_update": {
        const row = this.tools.get(str(update.toolCallId) ?? "");
        if (!row) {
          // An update for a call we never saw (the log was trimmed): show it as a call of its own.
          this.apply({ seq, at: "", type: "tool_call", update });
          return;
        }
        row.title = str(update.title) ?? row.title;
        row.toolKind = str(update.kind) ?? row.toolKind;
        row.status = str(update.status) ?? row.status;
        row.detail = toolDetail(update) || row.detail;
        return;
      }
      case "plan": {
        const steps = Array.isArray(update.entries) ? (update.entries as Record<string, unknown>[]) : [];
        this.plan = steps.map((step) => ({
          content: str(step.content) ?? "",
          status: str(step.status) ?? "pending",
          priority: str(step.priority),
        }));
        if (last?.kind === "plan") last.steps = this.plan.length;
        else this.rows.push({ kind: "plan", key: seq, steps: this.plan.length });
        return;
      }
      case "usage_update": {
        const cost = update.cost as { amount?: unknown; currency?: unknown } | undefined;
        this.usage = {
          used: num(update.used),
          size: num(update.size),
          cost: cost && typeof cost.amount === "number" ? { amount: cost.amount, currency: str(cost.currency) ?? "" } : null,
        };
        return;
      }
      case "permission": {
        const questionId = str(update.question_id) ?? "";
        const outcome = outcomeText(update.outcome);
        // The runner may log the answer as a second entry for the same question: it settles the first.
        if (outcome !== null && settlePermission(this, questionId, outcome)) return;
        const options = Array.isArray(update.options) ? (update.options as { name?: unknown }[]) : [];
        this.rows.push({
          kind: "permission",
          key: seq,
          questionId,
          title: str(update.title) ?? "The agent asks for permission",
          options: options.map((option) => str(option.name) ?? "").filter(Boolean),
          outcome,
        });
        return;
      }
      case "output":
        this.rows.push({ kind: "output", key: seq, stream: str(update.stream) ?? "stdout", text: str(update.text) ?? "" });
        return;
      case "git":
        this.rows.push({
          kind: "git",
          key: seq,
          step: str(update.step) ?? "git",
          message: str(update.message) ?? "",
          files: Array.isArray(update.files) ? update.files.map(String) : [],
        });
        return;
      case "prompt":
        this.rows.push({ kind: "prompt", key: seq, text: str(update.text) ?? "" });
        return;
      case "stop":
        this.rows.push({ kind: "stop", key: seq, reason: str(update.stop_reason) ?? "ended" });
        return;
      case "error":
        this.rows.push({ kind: "error", key: seq, message: str(update.message) ?? "The agent failed" });
        return;
      default:
        // available_commands_update, current_mode_update, …: one quiet line, so nothing is hidden.
        this.rows.push({ kind: "other", key: seq, type, text: summary(update) });
    }
  }
}

/** A permission entry's outcome, once its question was answered: the row shows the answer. */
export function settlePermission(model: RunLogModel, questionId: string, outcome: string): boolean {
  let changed = false;
  for (const row of model.rows) {
    if (row.kind === "permission" && row.questionId === questionId && row.outcome === null) {
      row.outcome = outcome;
      changed = true;
    }
  }
  return changed;
}

/** The runner logs the answer as {outcome: "selected", option_id, name} or {outcome: "cancelled"}. */
function outcomeText(outcome: unknown): string | null {
  if (typeof outcome === "string") return outcome;
  if (!outcome || typeof outcome !== "object") return null;
  const { name, option_id: optionId, outcome: kind } = outcome as { name?: unknown; option_id?: unknown; outcome?: unknown };
  return str(name) ?? (kind === "cancelled" ? "cancelled" : (str(optionId) ?? str(kind) ?? null));
}

function contentText(content: unknown): string {
  if (!content || typeof content !== "object") return "";
  const block = content as { type?: string; text?: string; uri?: string };
  if (block.type === "text") return block.text ?? "";
  if (block.type === "resource_link") return `[${block.uri ?? "resource"}]`;
  return `[${block.type ?? "content"}]`;
}

/** What a tool call did, in one short text: its locations, diffs and text output. */
function toolDetail(update: Record<string, unknown>): string {
  const parts: string[] = [];
  if (Array.isArray(update.locations)) {
    for (const location of update.locations as { path?: string; line?: number }[]) {
      if (location.path) parts.push(location.line ? `${location.path}:${location.line}` : location.path);
    }
  }
  if (Array.isArray(update.content)) {
    for (const item of update.content as Record<string, unknown>[]) {
      if (item.type === "diff") parts.push(`edited ${str(item.path) ?? "a file"}`);
      else if (item.type === "content") parts.push(contentText(item.content));
      else if (item.type === "terminal") parts.push(`terminal ${str(item.terminalId) ?? ""}`);
    }
  }
  return parts.join(" · ").slice(0, 2000);
}

function summary(update: Record<string, unknown>): string {
  const rest: Record<string, unknown> = { ...update };
  delete rest.sessionUpdate;
  const text = JSON.stringify(rest);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function num(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}
