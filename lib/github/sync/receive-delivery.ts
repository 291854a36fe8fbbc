import type { Db } from "@/lib/db/client";
import { githubAppFromEnv } from "@/lib/github/client/app-client";
import { interpretDelivery } from "@/lib/github/client/interpret-delivery";
import { githubWebhookSecret } from "@/lib/platform/github-app-settings";
import { unverifiableDelivery, verifyWebhookDelivery } from "@/lib/github/client/verify-webhook";
import { HttpError } from "@/lib/platform/errors";
import { applyBoardChange, type FollowUp } from "@/lib/github/sync/apply-change";

// POST /api/webhooks/github. Order matters: nothing is stored before the signature checks out; the
// delivery row is claimed with one INSERT … ON CONFLICT DO NOTHING, so a redelivery (same
// X-GitHub-Delivery) finds it taken and changes nothing. The board's own writes happen before the
// answer (a few statements, in arrival order); calls to GitHub (mergeability with back-off, check
// runs) run after it, and how they ended is written to the delivery row.

/** GitHub caps webhook payloads at 25 MB; anything larger is not from GitHub and is refused unread (413). */
export const MAX_DELIVERY_BYTES = 25 * 1024 * 1024;

export type DeliveryAnswer = { status: number; body: Record<string, unknown> };

/** 401 at once, before the body is read, when the delivery could not be verified whatever it holds. */
export function refuseUnverifiableDelivery(request: Request): void {
  const reason = unverifiableDelivery(request.headers, githubWebhookSecret());
  if (reason) throw new HttpError(401, reason);
}

export async function receiveGithubDelivery(db: Db, rawBody: string, headers: Headers): Promise<DeliveryAnswer> {
  const verified = await verifyWebhookDelivery(rawBody, headers, githubWebhookSecret());
  if (!verified.ok) return { status: verified.status, body: { detail: verified.reason } };
  const { delivery } = verified;
  const change = interpretDelivery(delivery);
  // Lower-cased, as GitHub compares repository names, so the settings page finds them by index.
  const repo = repoOf(change)?.toLowerCase() ?? null;
  const claimed = await db.$executeRaw`
    INSERT INTO github_deliveries (delivery_id, event, action, installation_id, repo)
    VALUES (${delivery.delivery_id}, ${delivery.event}, ${delivery.action}, ${delivery.installation_id}, ${repo})
    ON CONFLICT (delivery_id) DO NOTHING`;
  if (claimed === 0) return { status: 200, body: { delivery_id: delivery.delivery_id, status: "duplicate" } };

  let followUp: FollowUp | null = null;
  try {
    const applied = await applyBoardChange(db, change);
    await recordOutcome(db, delivery.delivery_id, applied.result, null);
    followUp = applied.followUp;
  } catch (error) {
    await recordOutcome(db, delivery.delivery_id, null, messageOf(error));
  }
  if (followUp) void runFollowUp(db, delivery.delivery_id, followUp);
  return { status: 202, body: { delivery_id: delivery.delivery_id, status: "accepted" } };
}

/** Work that talks to GitHub, after the answer; its outcome is appended to the delivery's result. */
async function runFollowUp(db: Db, deliveryId: string, followUp: FollowUp) {
  const github = githubAppFromEnv();
  try {
    if (!github) throw new Error("The GitHub App is not configured (GITHUB_APP_ID, GITHUB_APP_PRIVATE_KEY)");
    const outcome = await followUp(github);
    if (outcome) await appendOutcome(db, deliveryId, outcome, null);
  } catch (error) {
    await appendOutcome(db, deliveryId, null, messageOf(error)).catch((failure) =>
      console.error(`[github] delivery ${deliveryId}: could not record a failed follow-up`, failure),
    );
  }
}

function recordOutcome(db: Db, deliveryId: string, result: string | null, error: string | null) {
  return db.$executeRaw`UPDATE github_deliveries SET result = ${result}, error = ${error} WHERE delivery_id = ${deliveryId}`;
}

function appendOutcome(db: Db, deliveryId: string, result: string | null, error: string | null) {
  return db.$executeRaw`
    UPDATE github_deliveries
    SET result = CASE WHEN ${result}::text IS NULL THEN result ELSE concat_ws('; ', result, ${result}::text) END,
        error = CASE WHEN ${error}::text IS NULL THEN error ELSE concat_ws('; ', error, ${error}::text) END
    WHERE delivery_id = ${deliveryId}`;
}

function repoOf(change: ReturnType<typeof interpretDelivery>): string | null {
  return change.kind === "ignored" || change.kind === "installation" ? null : change.change.repo;
}

function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.slice(0, 2000);
}
