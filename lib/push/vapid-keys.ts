import type { Db } from "@/lib/db/client";
import { seal, unseal } from "@/lib/crypto/seal";

// The server's VAPID key pair (RFC 8292): made once, by whichever instance needs it first, and kept
// sealed in server_secrets so every instance signs with the same key. Browsers subscribed with the
// public key; a new pair would silently end every subscription, so it is never replaced.

const NAME = "vapid_keys";

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

let cached: VapidKeys | null = null;

export async function vapidKeys(db: Db): Promise<VapidKeys> {
  if (cached) return cached;
  let row = await db.serverSecret.findUnique({ where: { name: NAME } });
  if (!row) {
    // Two instances may race here: the first insert wins and both read it back.
    const { default: webpush } = await import("web-push");
    await db.serverSecret.createMany({
      data: [{ name: NAME, value: seal(JSON.stringify(webpush.generateVAPIDKeys())) }],
      skipDuplicates: true,
    });
    row = await db.serverSecret.findUniqueOrThrow({ where: { name: NAME } });
  }
  cached = JSON.parse(unseal(row.value)) as VapidKeys;
  return cached;
}
