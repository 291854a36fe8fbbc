import type { ImapFlow } from "imapflow";
import type { Db } from "@/lib/db/client";
import { incomingEmailConfig } from "@/lib/config";
import { sendMail } from "@/lib/net/send-mail";
import { readReply } from "@/lib/email/read-reply";

// The reader of replies (docs/email.md): one IMAP connection to INCOMING_EMAIL_IMAP_URL, with the
// mailbox selected. imapflow keeps it in IDLE between commands, so the server tells of a new
// message at once ("exists") and it is read within a second or so. Each unseen message is read
// (lib/email/read-reply.ts), answered in words when refused, and flagged \Seen. A lost connection
// is made again with back-off. Every instance may run one: the Message-ID receipt makes a message
// read by two of them count once.

const MAX_BACKOFF_MS = 60_000;

export function startIncomingMail(db: Db): void {
  const config = incomingEmailConfig();
  if (!config) return;
  void (async () => {
    for (let failures = 0; ; failures++) {
      try {
        await readMailbox(db, config);
        failures = 0;
      } catch (error) {
        console.error(`[taskboard] incoming mail: ${(error as Error).message}`);
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(1000 * 2 ** failures, MAX_BACKOFF_MS)).unref());
    }
  })();
}

async function readMailbox(db: Db, config: NonNullable<ReturnType<typeof incomingEmailConfig>>) {
  const { imapUrl } = config;
  // Loaded here, not at start: most servers read no mail (docs/PERFORMANCE.md, "A server's start").
  const { ImapFlow } = await import("imapflow");
  const client = new ImapFlow({
    host: imapUrl.hostname,
    port: Number(imapUrl.port) || (imapUrl.protocol === "imaps:" ? 993 : 143),
    secure: imapUrl.protocol === "imaps:",
    auth: { user: decodeURIComponent(imapUrl.username), pass: decodeURIComponent(imapUrl.password) },
    logger: false,
    // imapflow goes back into IDLE this long after the last command (15 s by default): until then the
    // server cannot tell of a new reply. The reader's commands come in short bursts, so at once.
    autoIdleDelay: 200,
  });
  let wake: () => void = () => {};
  let arrived = true;
  client.on("exists", () => ((arrived = true), wake()));
  const closed = new Promise<void>((resolve) => client.once("close", () => resolve()));
  client.on("error", (error: Error) => console.error(`[taskboard] incoming mail: ${error.message}`));
  await client.connect();
  try {
    await client.mailboxOpen(config.mailbox);
    console.log(`[taskboard] reading replies from ${config.mailbox} at ${imapUrl.host}`);
    while (client.usable) {
      if (!arrived) await Promise.race([new Promise<void>((resolve) => (wake = resolve)), closed]);
      arrived = false;
      if (client.usable) await readUnseen(db, client);
    }
  } finally {
    await client.logout().catch(() => {});
  }
}

async function readUnseen(db: Db, client: ImapFlow) {
  const uids = (await client.search({ seen: false }, { uid: true })) || [];
  for (const uid of uids) {
    const message = await client.fetchOne(String(uid), { source: true }, { uid: true });
    if (message && message.source) {
      const outcome = await readReply(db, message.source);
      if (outcome.status === "refused") {
        await sendMail({
          to: outcome.to,
          subject: outcome.subject,
          text: outcome.text,
          headers: { "Auto-Submitted": "auto-replied" },
          ...(outcome.inReplyTo ? { inReplyTo: outcome.inReplyTo, references: outcome.inReplyTo } : {}),
        }).catch((error: Error) => console.error(`[taskboard] incoming mail: could not answer ${outcome.to}: ${error.message}`));
      }
    }
    await client.messageFlagsAdd(String(uid), ["\\Seen"], { uid: true });
  }
}
