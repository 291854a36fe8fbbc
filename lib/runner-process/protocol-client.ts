// The runner's HTTP client of the protocol (docs/runners.md, "Protocol"). A call that cannot reach
// the server, or gets a 5xx, is tried again with back-off for as long as `patient` says (the
// server may be restarting: the runner keeps its agents running and delivers later). A 401 means
// the runner's token was deleted: the runner stops.

import { withoutNul } from "@/lib/runs/without-nul";

export class RunnerRevoked extends Error {}

export class ProtocolError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`HTTP ${status}: ${typeof body === "object" && body && "detail" in body ? JSON.stringify(body.detail) : String(body)}`);
  }
}

const BACKOFF_MS = [250, 500, 1000, 2000, 5000];

export class ProtocolClient {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
    private readonly onRevoked: () => void,
  ) {}

  /**
   * One call. `patient`: retried while unreachable or failing with 5xx until it succeeds or the
   * signal aborts (deliveries: log, outcome); otherwise a failure is thrown at once. `stalled` hears
   * when a patient call starts trying again (true) and when it got through after that (false).
   */
  async call<T>(
    method: string,
    path: string,
    body?: unknown,
    options: { patient?: boolean; signal?: AbortSignal; stalled?: (yes: boolean) => void } = {},
  ): Promise<T> {
    // Bytes (a bundle) go as they are; anything else as JSON, with what an agent printed NUL-free
    // (lib/runs/without-nul.ts): the server refuses a request with a NUL anywhere in it.
    const raw = body instanceof Uint8Array;
    const json = body === undefined || raw ? undefined : JSON.stringify(body);
    const sent = json?.includes("\\u0000") ? JSON.stringify(withoutNul(body, json)) : json;
    for (let attempt = 0; ; attempt++) {
      let retryable: Error;
      try {
        const headers: Record<string, string> = { authorization: `Bearer ${this.token}` };
        if (body !== undefined) headers["content-type"] = raw ? "application/octet-stream" : "application/json";
        const response = await fetch(`${this.baseUrl}/api/runner${path}`, {
          method,
          headers,
          body: raw ? new Blob([body as Uint8Array<ArrayBuffer>]) : sent,
          signal: options.signal,
        });
        const text = await response.text();
        const parsed = text ? safeJson(text) : null;
        if (response.ok) {
          if (attempt > 0) options.stalled?.(false);
          return parsed as T;
        }
        if (response.status === 401) {
          this.onRevoked();
          throw new RunnerRevoked("the server refused this runner's token (deleted?)");
        }
        if (response.status < 500) throw new ProtocolError(response.status, parsed);
        retryable = new ProtocolError(response.status, parsed);
      } catch (error) {
        if (error instanceof RunnerRevoked || error instanceof ProtocolError || options.signal?.aborted) throw error;
        retryable = error as Error;
      }
      if (!options.patient) throw retryable;
      if (attempt === 0) {
        console.error(`[taskboard] runner: ${method} ${path}: ${retryable.message}; trying again`);
        options.stalled?.(true);
      }
      await new Promise((resolve) => setTimeout(resolve, BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)]));
    }
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
