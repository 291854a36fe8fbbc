import type { Sql } from "@/lib/db/sql";
import { workspaceAccess } from "@/lib/api/handler";
import { eventsHeartbeatMs, eventStreamBufferBytes } from "@/lib/config";
import { RECONNECT_EVENT, RESET_EVENT } from "@/lib/events/event-types";
import { isBehindLog, readEvents } from "@/lib/events/read-events";
import { takeStreamSlot } from "@/lib/events/stream-slots";
import { onWorkspaceEvents } from "@/lib/events/wake";
import { dropConnection } from "@/lib/server/connections";
import { onDrain } from "@/lib/server/draining";

// One Server-Sent Events stream per open board, reading the workspace event log (lib/events) from
// a cursor: each event goes out with its log id as the SSE `id:`, so a reconnecting EventSource's
// `Last-Event-ID` (or `?after=` with the board's cursor) resumes exactly where it left off. The
// stream reads when woken (lib/events/wake.ts) and at every heartbeat; at each heartbeat it also
// re-checks the caller's credential and membership, so logout, a deleted key, a disabled user or
// a removed member closes it within one heartbeat.
//
// Backpressure: the stream holds at most EVENT_STREAM_BUFFER_BYTES that the client has not taken
// (Next writes to the socket only as fast as the client reads). While that buffer is full the
// stream stops reading the log, and resumes when the client has read; the log, not memory, holds
// what it has not been sent yet. A client that has read nothing for a whole heartbeat while the
// buffer was full is dropped: it reconnects with Last-Event-ID and loses nothing.

const RETRY_MS = 2_000;
const PAGE = 200;

export interface StreamRequest {
  workspaceId: string;
  /** The user the stream counts against (lib/events/stream-slots.ts). */
  userId: string;
  request: Request;
  sql: Sql;
  /** `?after=`: the cursor of the board the client loaded. Last-Event-ID wins over it. */
  after: string | undefined;
}

export async function workspaceEventStream({ workspaceId, userId, request, sql, after }: StreamRequest): Promise<Response> {
  const release = takeStreamSlot(userId);
  let cursor: string | null;
  try {
    cursor = await startingCursor(request, sql, workspaceId, after);
  } catch (error) {
    release();
    throw error;
  }
  const encoder = new TextEncoder();
  const limit = eventStreamBufferBytes();
  let close: (drop?: "drop") => void = () => {};
  let resume = () => {};

  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        let closed = false;
        let enqueued = 0;
        const buffered = () => limit - (controller.desiredSize ?? 0);
        const send = (text: string) => {
          if (closed) return;
          try {
            const bytes = encoder.encode(text);
            controller.enqueue(bytes);
            enqueued += bytes.byteLength;
          } catch {
            close();
          }
        };

        // One read at a time; a wake-up during a read asks for another read after it. While the
        // client's buffer is full nothing is read (`behind`); pull() resumes once it has room.
        let reading = false;
        let again = false;
        let behind = false;
        const pump = async () => {
          if (reading) {
            again = true;
            return;
          }
          reading = true;
          try {
            do {
              again = false;
              if (buffered() >= limit) {
                behind = true;
                break;
              }
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
        resume = () => {
          if (!behind || closed) return;
          behind = false;
          void pump();
        };

        // What the client had taken by the previous heartbeat, while its buffer was full.
        let takenWhenFull: number | null = null;
        const heartbeat = setInterval(async () => {
          const taken = enqueued - buffered();
          if (buffered() >= limit) {
            if (takenWhenFull !== null && taken === takenWhenFull) {
              console.warn(`[taskboard] event stream of ${workspaceId}: dropped a client that read nothing for a heartbeat`);
              close("drop");
              return;
            }
            takenWhenFull = taken;
          } else takenWhenFull = null;
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
        const onAbort = () => close();
        // A stopping server ends every stream with a last event saying to come back (to another
        // instance, or this server restarted), so no open board holds the shutdown (lib/server/shutdown.ts).
        const forgetDrain = onDrain(() => {
          send(`event: ${RECONNECT_EVENT}\ndata: ${JSON.stringify({ reason: "the server is stopping", retry_ms: RETRY_MS })}\n\n`);
          // A client that is not reading would hold its connection, and so the server's close, open.
          close(buffered() >= limit ? "drop" : undefined);
        });
        close = (drop) => {
          if (closed) return;
          closed = true;
          clearInterval(heartbeat);
          unsubscribe();
          forgetDrain();
          release();
          request.signal.removeEventListener("abort", onAbort);
          try {
            // A client that reads nothing would never receive a graceful end: discard what waits
            // for it, and end its connection (Next's last write to it waits for the socket).
            if (drop) controller.error(new Error("the client stopped reading"));
            else controller.close();
          } catch {
            // already closed by the client
          }
          if (drop) dropConnection(request);
        };
        request.signal.addEventListener("abort", onAbort);
        // `retry:` tells EventSource how soon to reconnect; the first comment flushes the headers.
        send(`retry: ${RETRY_MS}\n: connected\n\n`);
        void pump();
      },
      pull() {
        resume();
      },
      cancel() {
        close();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: limit }),
  );

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

async function startingCursor(request: Request, sql: Sql, workspaceId: string, after: string | undefined): Promise<string> {
  const lastEventId = request.headers.get("last-event-id");
  // A Last-Event-ID this server never sent cannot be resumed from: treat it as too old.
  const cursor = lastEventId !== null ? (CURSOR.test(lastEventId) ? lastEventId : "-1") : (after ?? null);
  return cursor ?? (await readEvents(sql, workspaceId, null, 0)).head; // from now on
}

const CURSOR = /^\d{1,18}$/;
