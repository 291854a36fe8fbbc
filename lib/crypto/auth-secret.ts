import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { dataDir, ensureDataDir } from "@/lib/config";

/**
 * The key next-auth signs and encrypts browser sessions with: AUTH_SECRET when set, else one made
 * on first start and kept in DATA_DIR so sessions survive restarts. Several instances must share
 * it, so set AUTH_SECRET when running more than one.
 */
export function authSecret(): string {
  const fromEnv = process.env.AUTH_SECRET || process.env.NEXTAUTH_SECRET;
  if (fromEnv) return fromEnv;
  const file = path.join(dataDir(), "auth-secret");
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    ensureDataDir();
    const secret = crypto.randomBytes(32).toString("base64url");
    try {
      fs.writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
      return secret;
    } catch {
      // Another process wrote it first; use theirs.
      return fs.readFileSync(file, "utf8").trim();
    }
  }
}
