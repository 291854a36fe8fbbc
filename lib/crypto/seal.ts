import crypto from "node:crypto";
import { authSecret } from "@/lib/crypto/auth-secret";

// Secrets the server must read back (webhook signing secrets, a repository's access token or deploy
// key) are stored sealed: AES-256-GCM under a key derived with HKDF-SHA256 from the auth secret.
// A sealed value reads `tbenc:v1:<key id>:<base64url(iv | ciphertext | tag)>`; the key id (the first
// bytes of a hash of the key) says which auth secret sealed it, so after a rotation values sealed
// under AUTH_SECRET_PREVIOUS still open and are sealed again under the new key at start-up
// (resealSecrets). Anything without the prefix is a value stored before sealing existed: it is
// read as it is (and sealed at the next start). docs/SECURITY.md, "Secrets at rest".

const PREFIX = "tbenc:v1:";
const INFO = "taskboard secrets at rest v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

interface Key {
  id: string;
  bytes: Buffer;
}

const derived = new Map<string, Key>();

function keyFrom(secret: string): Key {
  let key = derived.get(secret);
  if (!key) {
    const bytes = Buffer.from(crypto.hkdfSync("sha256", secret, "", INFO, 32));
    key = { id: crypto.createHash("sha256").update(bytes).digest("hex").slice(0, 8), bytes };
    derived.set(secret, key);
  }
  return key;
}

function currentKey(): Key {
  return keyFrom(authSecret());
}

/** The current key first, then those of AUTH_SECRET_PREVIOUS (comma-separated, for rotation). */
function knownKeys(): Key[] {
  const previous = (process.env.AUTH_SECRET_PREVIOUS ?? "")
    .split(",")
    .map((secret) => secret.trim())
    .filter(Boolean);
  return [currentKey(), ...previous.map(keyFrom)];
}

export function seal(plaintext: string): string {
  const key = currentKey();
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv("aes-256-gcm", key.bytes, iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `${PREFIX}${key.id}:${Buffer.concat([iv, body]).toString("base64url")}`;
}

export function isSealed(stored: string): boolean {
  return stored.startsWith(PREFIX);
}

/** The plaintext of a stored value; throws when it was sealed under a key the server no longer knows. */
export function unseal(stored: string): string {
  if (!isSealed(stored)) return stored;
  const [keyId, data] = stored.slice(PREFIX.length).split(":", 2);
  const key = knownKeys().find((candidate) => candidate.id === keyId);
  if (!key || !data)
    throw new Error(
      `A stored secret was sealed under an unknown key (${keyId}): set AUTH_SECRET_PREVIOUS to the secret it was sealed with`,
    );
  const raw = Buffer.from(data, "base64url");
  const decipher = crypto.createDecipheriv("aes-256-gcm", key.bytes, raw.subarray(0, IV_BYTES));
  decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
  return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString("utf8");
}

/** True when the stored value should be sealed again: plaintext, or sealed under an older key. */
export function needsReseal(stored: string): boolean {
  return !isSealed(stored) || !stored.startsWith(`${PREFIX}${currentKey().id}:`);
}
