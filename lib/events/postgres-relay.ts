import crypto from "node:crypto";
import { localBus, setEventForwarder, type WorkspaceEvent } from "@/lib/events/publish";

// Carries workspace events between app instances that share one PostgreSQL database. Each instance
// keeps one dedicated connection (outside the Prisma pool: LISTEN belongs to a session) that both
// LISTENs and NOTIFYs. An instance skips its own notifications: it already delivered them locally.

const CHANNEL = "taskboard_events";
// NOTIFY payloads are limited to 8000 bytes; bigger events travel as a stub the browser refetches.
const MAX_PAYLOAD = 7_500;
const RECONNECT_MS = 2_000;

interface Envelope {
  origin: string;
  event: WorkspaceEvent;
}

type PgClient = import("pg").Client;

const state = globalThis as typeof globalThis & { __taskboardRelay?: { stop(): Promise<void> } };

export async function startPostgresRelay(url: string): Promise<void> {
  if (state.__taskboardRelay) return;
  const pg = (await import("pg")).default;
  const origin = crypto.randomUUID();
  let client: PgClient | null = null;
  let stopped = false;
  let pending: Envelope[] = [];

  const connect = async () => {
    const next = new pg.Client({ connectionString: url });
    next.on("notification", (message) => {
      if (message.channel !== CHANNEL || !message.payload) return;
      try {
        const envelope = JSON.parse(message.payload) as Envelope;
        if (envelope.origin === origin) return;
        localBus().emit(envelope.event.workspace_id, envelope.event);
      } catch (error) {
        console.error("[taskboard] unreadable event notification", error);
      }
    });
    next.on("error", (error) => {
      console.error(`[taskboard] event relay connection lost: ${error.message}`);
      reconnectLater(next);
    });
    await next.connect();
    await next.query(`LISTEN ${CHANNEL}`);
    client = next;
    const queued = pending;
    pending = [];
    for (const envelope of queued) notify(envelope);
  };

  const reconnectLater = (broken: PgClient) => {
    if (client === broken) client = null;
    broken.end().catch(() => {});
    if (stopped) return;
    setTimeout(
      () =>
        connect().catch((error) => {
          console.error(`[taskboard] event relay cannot reconnect: ${error.message}`);
          reconnectLater(broken);
        }),
      RECONNECT_MS,
    ).unref();
  };

  // One query at a time on this client: pg queues overlapping queries but warns about it, and
  // pg 9 will throw. Concurrent requests publish concurrently, so the NOTIFYs take turns here.
  let sending: Promise<unknown> = Promise.resolve();
  const notify = (envelope: Envelope) => {
    const target = client;
    if (!target) {
      // Keep a short backlog while reconnecting; boards refetch on their own reconnect anyway.
      if (pending.length < 1_000) pending.push(envelope);
      return;
    }
    sending = sending.then(() =>
      target.query("SELECT pg_notify($1, $2)", [CHANNEL, encode(envelope)]).catch((error: Error) => {
        console.error(`[taskboard] cannot relay ${envelope.event.type}: ${error.message}`);
      }),
    );
  };

  await connect();
  setEventForwarder((event) => notify({ origin, event }));
  state.__taskboardRelay = {
    async stop() {
      stopped = true;
      setEventForwarder(undefined);
      await client?.end();
      state.__taskboardRelay = undefined;
    },
  };
}

export async function stopPostgresRelay(): Promise<void> {
  await state.__taskboardRelay?.stop();
}

function encode(envelope: Envelope): string {
  const text = JSON.stringify(envelope);
  if (Buffer.byteLength(text) <= MAX_PAYLOAD) return text;
  const data = envelope.event.data as Record<string, unknown> | null;
  const stub = { id: data?.id, task_id: data?.task_id, status: data?.status, truncated: true };
  return JSON.stringify({ origin: envelope.origin, event: { ...envelope.event, data: stub } });
}
