import type { RequestPermissionRequest } from "@agentclientprotocol/sdk";
import type { z } from "zod";
import type { NewLogEntry } from "@/lib/runs/append-log-entries";
import {
  MAX_LOG_BATCH,
  type answerResponse,
  type bundleResponse,
  type claimResponse,
  type diffBody,
  type heartbeatResponse,
  type Job,
  type logResponse,
  type permissionResponse,
  type remoteResponse,
} from "@/lib/runner-protocol";
import { oversizedUpdate } from "@/lib/runs/oversized-entry";
import { ProtocolClient, ProtocolError } from "@/lib/runner-process/protocol-client";
import { LOG_REQUEST_CHARS, LogCourier, type TopUp } from "@/lib/runner-process/log-courier";
import { WorkdirError } from "@/lib/git/workdir/workdir";
import { logFlushMs } from "@/lib/platform/runner-config";
import type { ExecutionFacts, LogOptions, Outcome, RunnerPort } from "@/lib/runner-process/runner-port";

// The runner process's port: the protocol over HTTP. Deliveries (log batches, facts, the outcome)
// are patient: while the server is away they wait and are sent when it is back, and a log batch
// sent twice is stored once (first_seq).

// RUNNER_CLAIM_WAIT_SECONDS: shorter in tests, so a deleted token is noticed sooner.
const CLAIM_WAIT_SECONDS = Math.min(30, Math.max(1, Number(process.env.RUNNER_CLAIM_WAIT_SECONDS) || 25));
const ANSWER_WAIT_SECONDS = 25;

export class HttpPort implements RunnerPort {
  readonly client: ProtocolClient;
  private readonly courier = new LogCourier(
    (batches, stalled) => this.client.call<z.output<typeof logResponse>>("POST", "/log", { batches }, { patient: true, stalled }),
    logFlushMs(),
  );
  /** The server's last word on why this runner gets no jobs: logged when it changes, not every claim. */
  private refused: string | null = null;

  constructor(
    url: string,
    token: string,
    private readonly about: { version: string; sandbox: "bubblewrap" | "none" },
    onRevoked: () => void,
    private readonly stopping: AbortSignal,
  ) {
    this.client = new ProtocolClient(url.replace(/\/+$/, ""), token, onRevoked);
  }

  async claim(room: number): Promise<Job[]> {
    const body = { ...this.about, free: room, wait_seconds: CLAIM_WAIT_SECONDS };
    const answer = await this.client.call<z.output<typeof claimResponse>>("POST", "/claim", body, { signal: this.stopping });
    const refused = answer.refused ?? null;
    if (refused !== this.refused) {
      if (refused) console.error(`[taskboard] runner: ${refused}`);
      else console.log("[taskboard] runner: the server hands this runner jobs again");
      this.refused = refused;
    }
    return answer.job ? [answer.job] : [];
  }

  async heartbeat(executionIds: string[], hold: { seconds: number; signal: AbortSignal }) {
    const body = { executions: executionIds, wait_seconds: hold.seconds };
    const answer = await this.client.call<z.output<typeof heartbeatResponse>>("POST", "/heartbeat", body, { signal: hold.signal });
    return answer.executions.filter((run) => run.cancel).map((run) => ({ id: run.id, reason: run.reason ?? "stopped by the server" }));
  }

  /**
   * A run's batch, cut into parts the server takes (MAX_LOG_BATCH entries, LOG_REQUEST_CHARS), each delivered with the
   * other runs' (LogCourier). The last part takes, when it is sent, what the run printed meanwhile (`more`).
   */
  async log(executionId: string, entries: NewLogEntry[], firstSeq: number, { stalled, more, now }: LogOptions = {}) {
    let part: unknown[] = [];
    let chars = 0;
    let first = firstSeq;
    const send = async (topUp?: TopUp) => {
      await this.courier.deliver({ execution_id: executionId, first_seq: first, entries: part }, chars, { stalled, topUp, now });
      first += part.length;
      part = [];
      chars = 0;
    };
    for (const entry of entries) {
      const wire = wireEntry(entry);
      const size = JSON.stringify(wire).length;
      if (part.length > 0 && (part.length >= MAX_LOG_BATCH || chars + size > LOG_REQUEST_CHARS)) await send();
      // One entry bigger than a request is stored as the server stores an oversized payload: what it was and how big.
      const fits = size <= LOG_REQUEST_CHARS;
      part.push(fits ? wire : { ...wire, update: oversizedUpdate(entry.update, size) });
      chars += fits ? size : 256;
    }
    // An entry too big for the room left stays with the run, for its next batch (which cuts it as above).
    const topUp: TopUp | undefined =
      more &&
      ((room) => {
        const added: unknown[] = [];
        let used = 0;
        more((entry) => {
          const wire = wireEntry(entry);
          const size = JSON.stringify(wire).length;
          if (added.length >= room.entries || used + size > room.chars) return false;
          added.push(wire);
          used += size;
          return true;
        });
        return { entries: added, chars: used };
      });
    if (part.length > 0) await send(topUp);
  }

  async update(executionId: string, facts: ExecutionFacts) {
    await this.client.call("PATCH", `/executions/${executionId}`, facts, { patient: true });
  }

  async ask(executionId: string, request: RequestPermissionRequest) {
    const body = { tool_call: request.toolCall, options: request.options };
    return this.client.call<z.output<typeof permissionResponse>>("POST", `/executions/${executionId}/questions`, body, { patient: true });
  }

  async answer(executionId: string, questionId: string, signal: AbortSignal) {
    const path = `/executions/${executionId}/questions/${questionId}?wait_seconds=${ANSWER_WAIT_SECONDS}`;
    return this.client.call<z.output<typeof answerResponse>>("GET", path, undefined, { patient: true, signal });
  }

  async settle(executionId: string, questionId: string) {
    await this.client.call("POST", `/executions/${executionId}/questions/${questionId}/settle`, undefined, { patient: true });
  }

  async remote(executionId: string, options: { fresh?: boolean; push?: string }) {
    try {
      return await this.client.call<z.output<typeof remoteResponse>>("POST", `/executions/${executionId}/remote`, options, {
        patient: true,
      });
    } catch (error) {
      // The server's refusal in words (a push of a branch that is no longer the task's own).
      if (error instanceof ProtocolError && error.status === 409)
        throw new WorkdirError(String((error.body as { detail?: unknown })?.detail));
      throw error;
    }
  }

  async diff(executionId: string, diff: z.input<typeof diffBody>) {
    await this.client.call("PUT", `/executions/${executionId}/diff`, diff, { patient: true });
  }

  async bundle(executionId: string, bundle: Uint8Array) {
    return this.client.call<z.output<typeof bundleResponse>>("PUT", `/executions/${executionId}/bundle`, bundle, { patient: true });
  }

  async release(executionId: string, reason: string) {
    try {
      await this.client.call("POST", `/executions/${executionId}/release`, { reason }, { patient: true });
    } catch (error) {
      // Released already (a lost answer), ended meanwhile (409) or not this runner's any more: nothing to hand back.
      if (!(error instanceof ProtocolError && (error.status === 404 || error.status === 409))) throw error;
    }
  }

  async finish(executionId: string, outcome: Outcome) {
    try {
      await this.client.call("POST", `/executions/${executionId}/finish`, outcome, { patient: true });
    } catch (error) {
      // Not this runner's any more (deleted with its runs): nothing to record.
      if (!(error instanceof ProtocolError && error.status === 404)) throw error;
    }
  }
}

function wireEntry(entry: NewLogEntry) {
  return { ...entry, at: (entry.at ?? new Date()).toISOString() };
}
