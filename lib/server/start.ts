import { connection } from "@/lib/db/client";
import { createFirstAdmin } from "@/lib/users/create-user";
import { needsSetup } from "@/lib/auth/needs-setup";
import { setupCode } from "@/lib/auth/setup-code";
import { HttpError } from "@/lib/platform/errors";
import { ensureDataDir, passwordLoginEnabled } from "@/lib/config";
import { startEventPruning } from "@/lib/events/prune-events";
import { startEventListener } from "@/lib/events/wake";
import { startEngine } from "@/lib/server/start-engine";
import { resealSecrets } from "@/lib/crypto/reseal-secrets";
import { startDeliveryWorker } from "@/lib/webhooks/deliver-webhooks";
import { startReactions } from "@/lib/reactions/run-reactions";
import { startDeliveryPruning } from "@/lib/webhooks/prune-deliveries";
import { startExpirySweeps } from "@/lib/server/sweep-expired";
import { startNotificationWorker } from "@/lib/notifications/notification-worker";
import { registerChannelSender } from "@/lib/notifications/channels";
import { slackSender } from "@/lib/slack/slack-sender";
import { emailSender } from "@/lib/email/email-sender";
import { startIncomingMail } from "@/lib/email/incoming-mail";
import { pushSender } from "@/lib/push/push-sender";
import { installShutdown } from "@/lib/server/shutdown";

export async function startServer() {
  try {
    ensureDataDir();
    const { db, sql, kind } = await connection();
    console.log(`[taskboard] database ready (${kind})`);
    await bootstrapAdmin(db);
    // Before the webhook worker signs with them: plaintext or old-key secrets sealed anew.
    const resealed = await resealSecrets(db);
    if (resealed > 0) console.log(`[taskboard] sealed ${resealed} stored secret(s) under the current key`);
    if (await needsSetup(db)) {
      console.log(
        `[taskboard] no administrator yet: open /setup from this machine, or from another one with the setup code ${setupCode()}`,
      );
    }
    // Event streams wake on the event log's notifications, from this instance or any other.
    await startEventListener();
    startEventPruning(sql);
    await startEngine(db);
    // Outbound webhooks read the event log from each endpoint's cursor; every instance runs a
    // worker, and row locks with leases decide which one delivers (docs/webhooks.md).
    startDeliveryWorker(db);
    // Reactions (lib/reactions/) read the same log the same way, each from its own cursor.
    await startReactions(db, kind);
    startDeliveryPruning(db);
    startExpirySweeps(db);
    // Notifications: questions nobody answered in time, and the deliveries that need a sender
    // (docs/notifications.md); the notify reactions above turn events into notifications.
    registerChannelSender("slack", slackSender(db));
    registerChannelSender("email", emailSender(db));
    registerChannelSender("push", pushSender(db));
    startNotificationWorker(db);
    // Replies to mailed questions, when INCOMING_EMAIL_IMAP_URL is set (docs/email.md).
    startIncomingMail(db);
    // SIGTERM: event streams end, the embedded runner hands back its runs, then the server closes.
    installShutdown();
  } catch (error) {
    console.error(`[taskboard] cannot start: ${(error as Error).message}`);
    process.exit(1);
  }
}

async function bootstrapAdmin(db: Awaited<ReturnType<typeof connection>>["db"]) {
  const username = process.env.ADMIN_USERNAME;
  const password = process.env.ADMIN_PASSWORD;
  if (!username || !password) return;
  if (!(await needsSetup(db))) return;
  if (!passwordLoginEnabled()) {
    // Such an administrator could never sign in; docs/sso.md, "First administrator".
    console.log(
      "[taskboard] ADMIN_USERNAME ignored: PASSWORD_LOGIN=false; the first allowed single sign-on user becomes the administrator",
    );
    return;
  }
  try {
    await createFirstAdmin(db, username, password);
    console.log(`[taskboard] created the first administrator "${username}" from ADMIN_USERNAME`);
  } catch (error) {
    // Another instance created it first.
    if (!(error instanceof HttpError && error.status === 409)) throw error;
  }
}
