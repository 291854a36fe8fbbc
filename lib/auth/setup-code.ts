import crypto from "node:crypto";
import { forbidden } from "@/lib/platform/errors";
import { authSecret } from "@/lib/crypto/auth-secret";
import { isLoopback } from "@/lib/auth/client-address";

// Until the first administrator exists, whoever reaches the server first could become it. From
// this machine (loopback) that is the person who started it; from anywhere else they must show the
// code the server printed in its log. The code is derived from the auth secret, so every instance
// sharing AUTH_SECRET (or DATA_DIR) prints and accepts the same one, and it is worthless once
// setup is done.
const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

export function setupCode(): string {
  const digest = crypto.createHmac("sha256", authSecret()).update("taskboard-setup-code").digest();
  const chars = Array.from(digest.subarray(0, 16), (byte) => ALPHABET[byte % ALPHABET.length]).join("");
  return chars.match(/.{4}/g)!.join("-");
}

export function setupCodeRequired(client: string): boolean {
  return !isLoopback(client);
}

export function assertSetupCode(client: string, code: string | undefined) {
  if (!setupCodeRequired(client)) return;
  const given = Buffer.from(normalize(code ?? ""));
  const expected = Buffer.from(normalize(setupCode()));
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) {
    throw forbidden("Setting up from another machine needs the setup code printed in the server's log");
  }
}

function normalize(code: string) {
  return code.toUpperCase().replace(/[^A-Z0-9]/g, "");
}
