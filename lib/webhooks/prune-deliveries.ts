import type { Db } from "@/lib/db/client";
import { eventPruneIntervalMs, eventRetentionDays } from "@/lib/config";
import { deliveriesKept } from "@/lib/webhooks/config";
import { DELIVERY_STATUS } from "@/lib/webhooks/statuses";

// Keeps the deliveries table bounded like the event log: per endpoint the newest
// WEBHOOK_DELIVERIES_KEPT, none older than EVENT_RETENTION_DAYS. Pending deliveries always stay.

export async function pruneDeliveries(db: Db): Promise<number> {
  return db.$executeRawUnsafe(PRUNE, deliveriesKept(), eventRetentionDays(), DELIVERY_STATUS.pending);
}

export function startDeliveryPruning(db: Db): () => void {
  const tick = () =>
    void pruneDeliveries(db).catch((error) => console.error(`[taskboard] webhook delivery pruning: ${(error as Error).message}`));
  const interval = setInterval(tick, eventPruneIntervalMs());
  interval.unref();
  tick();
  return () => clearInterval(interval);
}

// `through`: per endpoint, the newest id past the newest $1 (an index scan of at most $1 entries each).
const PRUNE = `WITH cut AS (
  SELECT w.id AS webhook_id,
    (SELECT x.id FROM webhook_deliveries x WHERE x.webhook_id = w.id ORDER BY x.id DESC OFFSET $1::int LIMIT 1) AS through
  FROM webhooks w
)
DELETE FROM webhook_deliveries d USING cut
WHERE d.webhook_id = cut.webhook_id AND d.status <> $3
  AND (d.id <= cut.through OR d.created_at < now() - make_interval(days => $2::int))`;
