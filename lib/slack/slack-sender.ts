import type { Db } from "@/lib/db/client";
import { slackConfig } from "@/lib/config";
import { boardLink } from "@/lib/notifications/board-link";
import type { ChannelSender, OutgoingNotification } from "@/lib/notifications/channels";
import { linkSlackAccount } from "@/lib/slack/link-accounts";
import { slackClient } from "@/lib/slack/slack-client";

// The `slack` channel of a person's notifications (docs/notifications.md): a direct message from the
// app, to the Slack account found by the person's email. A question's buttons live on its post in
// the workspace's channel (docs/slack.md); the message points there and to the board. Slack's
// chat.postMessage takes no idempotency key, so a crash between Slack's answer and the delivery's
// record could send one twice: the delivery's lease keeps two instances from sending it at once.

export function slackSender(db: Db): ChannelSender {
  return {
    configured: () => slackConfig() !== null,
    send: (notification) => sendDirectMessage(db, notification),
  };
}

async function sendDirectMessage(db: Db, notification: OutgoingNotification) {
  const client = await slackClient();
  if (!client) throw new Error("Slack is not configured on this server");
  const person = await db.user.findUnique({ where: { id: notification.userId }, select: { id: true, email: true, slackUserId: true } });
  const slackUserId = person ? await linkSlackAccount(db, client, person) : null;
  if (!slackUserId) throw new Error("No Slack account has this person's email address (Settings → Profile)");
  const link = boardLink(notification);
  const text = `*${notification.title}*\n${notification.body}${link ? `\n<${link}|Open on the board>` : ""}`.slice(0, 3000);
  await client.chat.postMessage({ channel: slackUserId, text, unfurl_links: false });
}
