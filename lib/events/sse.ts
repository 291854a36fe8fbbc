import type { Sql } from "@/lib/db/sql";
import { workspaceAccess } from "@/lib/api/handler";
import { eventsHeartbeatMs } from "@/lib/config";
import { RESET_EVENT } from "@/lib/events/event-types";
import { isBehindLog, readEvents } from "@/lib/events/read-events";
import { onWorkspaceEvents } from "@/lib/events/wake";

// One Server-Sent Events stream per open board, reading the workspace event log (lib/events) from
// a cursor: each event goes out with its log id as the SSE `id:`, so a reconnecting EventSource's
// `Last-Event-ID` (or `?after=` with the board's cursor) resumes exactly where it left off. The
// stream reads when woken (lib/events/wake.ts) and at every heartbeat; at each heartbeat it also
// re-checks the caller's credential and membership, so logout, a deleted key, a disabled user or
// a removed member closes it within one heartbeat.

const RETRY_MS = 2_000;
const PAGE = 200;

export interface StreamRequest {
  workspaceId: string;
  request: Request;
  sql: Sql;
  /** `?after=`: the cursor of the board the client loaded. Last-Event-ID wins over it. */
  after: string | undefined;
}

export async function workspaceEventStream({ workspaceId, request, sql, after }: StreamRequest): Promise<Response> {
  const lastEventId = request.headers.get("last-event-id");
  // A Last-Event-ID this server never sent cannot be resumed from: treat it as too old.
  let cursor: string | null = lastEventId !== null ? (CURSOR.test(lastEventId) ? lastEventId : "-1") : (after ?? null);
  if (cursor === null) cursor = (await readEvents(sql, workspaceId, null, 0)).head; // from now on
  const encoder = new TextEncoder();
  let close = () => {};

  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      const send = (text: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          close();
        }
      };

      // One read at a time; a wake-up during a read asks for another read after it.
      let reading = false;
      let again = false;
      const pump = async () => {
        if (reading) {
          again = true;
          return;
        }
        reading = true;
        try {
          do {
            again = false;
            const page = await readEvents(sql, workspaceId, cursor, PAGE);
            if (isBehindLog(page, cursor!)) {
              cursor = page.head;
              send(`id: ${cursor}\nevent: ${RESET_EVENT}\ndata: ${JSON.stringify({ cursor })}\n\n`);
              again = true; // and on from there at once
              continue;
            }
            for (const event of page.events) {
              send(`id: ${event.id}\nevent: ${event.type}\ndata: ${event.json.split("\n").join("\ndata: ")}\n\n`);
              cursor = event.id;
            }
            if (page.events.length === PAGE) again = true;
          } while (again && !closed);
        } catch (error) {
          console.error(`[taskboard] event stream of ${workspaceId}: ${(error as Error).message}`);
        } finally {
          reading = false;
        }
      };

      const heartbeat = setInterval(async () => {
        try {
          await workspaceAccess(request, sql, workspaceId);
        } catch {
          close();
          return;
        }
        send(`: heartbeat ${Date.now()}\n\n`);
        void pump();
      }, eventsHeartbeatMs());
      const unsubscribe = onWorkspaceEvents(workspaceId, () => void pump());
      close = () => {
        if (closed) return;
        closed = true;
        clearInterval(heartbeat);
        unsubscribe();
        request.signal.removeEventListener("abort", close);
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      request.signal.addEventListener("abort", close);
      // `retry:` tells EventSource how soon to reconnect; the first comment flushes the headers.
      send(`retry: ${RETRY_MS}\n: connected\n\n`);
      void pump();
    },
    cancel() {
      close();
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

const CURSOR = /^\d{1,18}$/;
