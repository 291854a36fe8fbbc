import type { Db } from "@/lib/db/client";
import { eventPruneIntervalMs } from "@/lib/config";

// Rows that stop meaning anything once they expire, deleted in the background so the tables stay
// bounded (the event log and webhook deliveries have their own pruning). Each statement deletes at
// most BATCH rows a tick, found through an index, so a backlog never makes one long transaction.

const BATCH = 5000;

/** What is swept, and why it is safe to. */
const SWEEPS: { what: string; sql: string }[] = [
  {
    // oidc-provider's codes, tokens, sessions, interactions and grants past their TTL: its adapter
    // already treats them as absent (lib/oauth/adapter.ts).
    what: "expired OAuth records",
    sql: `DELETE FROM oauth_records WHERE key IN (
            SELECT key FROM oauth_records WHERE expires_at < now() LIMIT ${BATCH})`,
  },
  {
    // Dynamic client registration needs no account, so unused registrations would pile up. A client
    // that no one has granted anything to for 30 days is forgotten; an MCP client registers again.
    what: "OAuth clients nobody uses",
    sql: `DELETE FROM oauth_records WHERE key IN (
            SELECT c.key FROM oauth_records c
            WHERE c.model = 'Client' AND c.created_at < now() - interval '30 days'
              AND NOT EXISTS (SELECT 1 FROM oauth_records g
                              WHERE g.model = 'Grant' AND g.payload->>'clientId' = c.payload->>'client_id')
            LIMIT 1000)`,
  },
  {
    // Sign-in, refresh, agent and MCP tokens 30 days past their expiry (kept that long for "last
    // used" in Connected apps). API keys stay: their owner deletes them.
    what: "expired tokens",
    sql: `DELETE FROM auth_tokens WHERE id IN (
            SELECT id FROM auth_tokens
            WHERE kind IN ('access', 'refresh', 'browser_session', 'agent', 'mcp_access')
              AND expires_at < now() - interval '30 days'
            LIMIT ${BATCH})`,
  },
  {
    // A push action's or a mail reply's key past its 7 days answers nothing (lib/questions/answer-keys.ts),
    // but for 30 days more it still says "expired" rather than "not valid" to whoever uses it.
    what: "expired answer keys",
    sql: `DELETE FROM answer_keys WHERE id IN (
            SELECT id FROM answer_keys WHERE expires_at < now() - interval '30 days' LIMIT ${BATCH})`,
  },
  {
    // A reply read twice is recognised by its Message-ID; after 30 days its message has long been
    // flagged \Seen, so the reader never reads it again (lib/email/incoming-mail.ts).
    what: "old mail receipts",
    sql: `DELETE FROM email_receipts WHERE message_id IN (
            SELECT message_id FROM email_receipts WHERE received_at < now() - interval '30 days' LIMIT ${BATCH})`,
  },
];

/** One pass over every sweep; how many rows each deleted. */
export async function sweepExpired(db: Db): Promise<Record<string, number>> {
  const deleted: Record<string, number> = {};
  for (const sweep of SWEEPS) deleted[sweep.what] = await db.$executeRawUnsafe(sweep.sql);
  return deleted;
}

export function startExpirySweeps(db: Db): () => void {
  const tick = () => void sweepExpired(db).catch((error) => console.error(`[taskboard] expiry sweep: ${(error as Error).message}`));
  const interval = setInterval(tick, eventPruneIntervalMs());
  interval.unref();
  tick();
  return () => clearInterval(interval);
}
