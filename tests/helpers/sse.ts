// Reads a Server-Sent Events stream over real HTTP, for the event-stream tests.

export interface SseMessage {
  id?: string;
  event?: string;
  data?: string;
}

export interface SseStream {
  status: number;
  headers: Headers;
  /** The next message with an `event:` (comments and bare `retry:` blocks are skipped). */
  next(timeoutMs?: number, what?: string): Promise<SseMessage>;
  /** Messages until one matches, the matching one last. */
  until(match: (message: SseMessage) => boolean, timeoutMs?: number, what?: string): Promise<SseMessage[]>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

export async function openStream(url: string, headers: Record<string, string>): Promise<SseStream> {
  const abort = new AbortController();
  const response = await fetch(url, { headers, signal: abort.signal });
  const queue: SseMessage[] = [];
  const waiters: (() => void)[] = [];
  let finished = false;
  let connected: () => void = () => {};
  const opened = new Promise<void>((resolve) => (connected = resolve));
  const ended = (async () => {
    if (!response.body) return;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const message: SseMessage = {};
          for (const line of block.split("\n")) {
            if (line === ": connected") connected();
            if (line.startsWith(":")) continue;
            const colon = line.indexOf(":");
            const field = line.slice(0, colon);
            const value = line.slice(colon + 1).replace(/^ /, "");
            if (field === "id" || field === "event") message[field] = value;
            if (field === "data") message.data = message.data === undefined ? value : `${message.data}\n${value}`;
          }
          if (message.event) {
            queue.push(message);
            waiters.splice(0).forEach((wake) => wake());
          }
        }
      }
    } catch {
      // aborted
    } finally {
      finished = true;
      waiters.splice(0).forEach((wake) => wake());
    }
  })();
  if (response.ok) await opened;

  const next = async (timeoutMs = 10_000, what = "an event") => {
    const deadline = Date.now() + timeoutMs;
    while (queue.length === 0) {
      if (finished) throw new Error(`stream ended while waiting for ${what}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, left);
      });
    }
    return queue.shift()!;
  };

  return {
    status: response.status,
    headers: response.headers,
    next,
    async until(match, timeoutMs = 10_000, what = "a matching event") {
      const seen: SseMessage[] = [];
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const message = await next(Math.max(1, deadline - Date.now()), what);
        seen.push(message);
        if (match(message)) return seen;
      }
    },
    ended,
    close: () => abort.abort(),
  };
}
