import { localBus, type WorkspaceEvent } from "@/lib/events/publish";

// One Server-Sent Events stream per open board. Each workspace event becomes an SSE message whose
// `event:` is the event type, so the browser can listen per type; a comment every HEARTBEAT_MS
// keeps proxies from closing an idle connection and lets the server notice a vanished client.

export const HEARTBEAT_MS = 15_000;
const RETRY_MS = 2_000;

export function workspaceEventStream(workspaceId: string, signal: AbortSignal): Response {
  const encoder = new TextEncoder();
  const bus = localBus();
  let cleanup = () => {};
  let sequence = 0;

  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          cleanup();
        }
      };
      const onEvent = (event: WorkspaceEvent) => {
        sequence += 1;
        send(`id: ${sequence}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`);
      };
      const heartbeat = setInterval(() => send(`: heartbeat ${Date.now()}\n\n`), HEARTBEAT_MS);
      cleanup = () => {
        clearInterval(heartbeat);
        bus.off(workspaceId, onEvent);
        signal.removeEventListener("abort", cleanup);
        cleanup = () => {};
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      bus.on(workspaceId, onEvent);
      signal.addEventListener("abort", cleanup);
      // `retry:` tells EventSource how soon to reconnect; the first comment flushes the headers.
      send(`retry: ${RETRY_MS}\n: connected\n\n`);
    },
    cancel() {
      cleanup();
    },
  });

  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      // nginx and similar proxies buffer responses unless told otherwise.
      "x-accel-buffering": "no",
    },
  });
}
