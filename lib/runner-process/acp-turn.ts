import type { ChildProcess } from "node:child_process";
import type { RequestPermissionRequest } from "@agentclientprotocol/sdk";
import { AcpError, describeAcpFailure, driveAcpAgent } from "@/lib/agents/drive-acp-agent";
import type { AgentSnapshot } from "@/lib/agents/resolve-run-agent";
import { RUN_STATUS } from "@/lib/runs/statuses";
import { ReportText, UsageTally } from "@/lib/runner-process/acp-run";
import { killGraceMs } from "@/lib/platform/runner-config";
import type { LogSink } from "@/lib/runner-process/log-sink";
import type { RunnerPort } from "@/lib/runner-process/runner-port";
import { delay, type Active, type Exited, type Ran, type Verdict } from "@/lib/runner-process/job-types";
import { stopGroup } from "@/lib/platform/processes";

const SPEAKING = new Set(["agent_message_chunk", "tool_call", "plan"]);

/**
 * An `acp` agent: one prompt turn through driveAcpAgent. Each session/update becomes an entry of
 * its own type, a permission request a question, and the agent's stderr `output` entries.
 */
export async function driveAcp(
  port: RunnerPort,
  entry: Active,
  agent: AgentSnapshot,
  run: {
    child: ChildProcess;
    cwd: string;
    instructions: string;
    sink: LogSink;
    exited: Exited;
    sessionMeta: Record<string, unknown> | null;
  },
): Promise<Ran> {
  const { child, sink } = run;
  const { job } = entry;
  const id = job.execution_id;
  child.stderr!.on("data", (chunk: Buffer) => sink.write("stderr", chunk));
  const usage = new UsageTally();
  const report = new ReportText();
  let spoke = false;
  let result: Verdict;
  const note = (what: string) => (error: Error) =>
    console.error(`[taskboard] execution ${id}: could not record its ${what}: ${error.message}`);
  try {
    const outcome = await driveAcpAgent({
      child,
      cwd: run.cwd,
      instructions: run.instructions,
      resumeSessionId: job.resume_session_id,
      sessionMeta: run.sessionMeta,
      // The board's own MCP server, as the run's agent token, where the agent can reach MCP over HTTP.
      mcpServers: (init) =>
        init.agentCapabilities?.mcpCapabilities?.http
          ? [{ type: "http", name: "taskboard", url: job.mcp_url, headers: [{ name: "Authorization", value: `Bearer ${job.token}` }] }]
          : [],
      onSession: (sessionId, resumed) =>
        void port.update(id, { acp_session_id: sessionId, acp_session_loaded: resumed }).catch(note("ACP session")),
      onModel: (model) => void port.update(id, { model: model.slice(0, 200) }).catch(note("model")),
      onUpdate: (update) => {
        usage.see(update);
        report.see(update);
        if (SPEAKING.has(update.sessionUpdate)) spoke = true;
        sink.push(update.sessionUpdate, update as unknown as Record<string, unknown>, JSON.stringify(update).length);
      },
      onPermission: (request, signal) => askPermission(port, id, request, signal, sink),
      signal: entry.abort.signal,
    });
    usage.seeResponse(outcome.usage);
    sink.push("stop", { stop_reason: outcome.stopReason });
    result =
      outcome.stopReason === "end_turn"
        ? { status: RUN_STATUS.succeeded, exit_code: null, error_message: null }
        : { status: RUN_STATUS.failed, exit_code: null, error_message: `the agent stopped its turn: ${outcome.stopReason}` };
  } catch (error) {
    const message = error instanceof AcpError ? error.message : describeAcpFailure(error);
    if (!entry.stop) sink.push("error", { message });
    result = { status: RUN_STATUS.failed, exit_code: null, error_message: `${agent.name}: ${message}` };
  }
  // The turn is over: the adapter has nothing left to do, so its group is stopped (SIGKILL after the grace).
  stopGroup(child.pid!, killGraceMs());
  const { code } = await Promise.race([run.exited, delay(killGraceMs() + 1000).then(() => ({ code: null }))]);
  if (entry.stop) result = { status: entry.stop.status, exit_code: code, error_message: entry.stop.message };
  else result = { ...result, exit_code: code };
  return { verdict: result, report: report.text(), usage: usage.value(), spoke };
}

/**
 * A permission request: a question on the task, the run waiting_for_input until a person answers
 * (the port long-polls), then the chosen option. A cancel (signal) answers `cancelled`.
 */
async function askPermission(port: RunnerPort, id: string, request: RequestPermissionRequest, signal: AbortSignal, sink: LogSink) {
  const { question_id, options, title } = await port.ask(id, request);
  const listed = options.map((o) => ({ id: o.option_id, name: o.name, kind: o.kind }));
  sink.push("permission", { question_id, title, options: listed, tool_call: request.toolCall });
  let chosen: string | null = null;
  try {
    while (!signal.aborted) {
      const seen = await port.answer(id, question_id, signal);
      if (seen.status === "answered") chosen = seen.option_id;
      if (seen.status !== "open") break;
    }
  } catch {
    // The question could not be read: the request is answered cancelled.
  }
  if (signal.aborted) chosen = null;
  await port.settle(id, question_id);
  const option = options.find((o) => o.option_id === chosen);
  sink.push("permission", {
    question_id,
    title,
    options: listed,
    outcome: option ? { outcome: "selected", option_id: option.option_id, name: option.name } : { outcome: "cancelled" },
  });
  return { optionId: option?.option_id ?? null };
}
