// The LISTEN side of the event log's wake-ups on PostgreSQL. Each instance keeps one dedicated
// connection (outside the Prisma pool: LISTEN belongs to a session) that only listens; the NOTIFYs
// come from the log's trigger in the writers' transactions, so every instance, the writer's own
// included, hears of every commit. After a reconnect every stream re-reads: notifications sent
// while the connection was down are lost, the events are not.

const RECONNECT_MS = 2_000;

type PgClient = import("pg").Client;

const state = globalThis as typeof globalThis & { __taskboardRelay?: { stop(): Promise<void> } };

export interface RelayHandlers {
  /** A notification's payload: the workspace whose log grew. */
  wake(workspaceId: string): void;
  /** (Re)connected: whatever was sent meanwhile is unknown. */
  connected(): void;
}

export async function startPostgresRelay(url: string, channel: string, handlers: RelayHandlers): Promise<void> {
  if (state.__taskboardRelay) return;
  const pg = (await import("pg")).default;
  let client: PgClient | null = null;
  let stopped = false;

  const connect = async () => {
    const next = new pg.Client({ connectionString: url });
    next.on("notification", (message) => {
      if (message.channel === channel && message.payload) handlers.wake(message.payload);
    });
    next.on("error", (error) => {
      console.error(`[taskboard] event listener connection lost: ${error.message}`);
      reconnectLater(next);
    });
    await next.connect();
    await next.query(`LISTEN ${channel}`);
    client = next;
    handlers.connected();
  };

  const reconnectLater = (broken: PgClient) => {
    if (client === broken) client = null;
    broken.end().catch(() => {});
    if (stopped) return;
    setTimeout(
      () =>
        connect().catch((error) => {
          console.error(`[taskboard] event listener cannot reconnect: ${error.message}`);
          reconnectLater(broken);
        }),
      RECONNECT_MS,
    ).unref();
  };

  await connect();
  state.__taskboardRelay = {
    async stop() {
      stopped = true;
      await client?.end();
      state.__taskboardRelay = undefined;
    },
  };
}
