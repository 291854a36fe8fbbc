import crypto from "node:crypto";
import os from "node:os";
import { promisify } from "node:util";

// Node's built-in scrypt: memory-hard (16 MiB per hash with these parameters), no native add-on to
// build or download. Parameters are stored with each hash so they can be raised later.
const scrypt = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

const N = 16384;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

// Each hash takes 16 MiB and a thread-pool thread for tens of milliseconds. Unbounded, a burst of
// logins would queue every other file and DNS operation behind them and grow memory with the
// burst; so at most this many run at once and the rest wait their turn.
export const MAX_CONCURRENT_HASHES = Math.max(2, Math.min(4, os.availableParallelism()));
const hashing = { running: 0, peak: 0, waiting: [] as (() => void)[] };

/** How many hashes run now and the most that ever ran at once (for tests and diagnostics). */
export function hashLoad() {
  return { running: hashing.running, peak: hashing.peak, waiting: hashing.waiting.length };
}

async function boundedScrypt(password: string, salt: Buffer, keylen: number, options: crypto.ScryptOptions): Promise<Buffer> {
  // A finishing hash hands its slot straight to the next waiter, so none can jump the queue.
  if (hashing.running < MAX_CONCURRENT_HASHES) hashing.running++;
  else await new Promise<void>((resolve) => hashing.waiting.push(resolve));
  hashing.peak = Math.max(hashing.peak, hashing.running);
  try {
    return await scrypt(password, salt, keylen, options);
  } finally {
    const next = hashing.waiting.shift();
    if (next) next();
    else hashing.running--;
  }
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const key = await boundedScrypt(password, salt, KEY_LENGTH, { N, r: R, p: P, maxmem: 64 * 1024 * 1024 });
  return ["scrypt", N, R, P, salt.toString("base64url"), key.toString("base64url")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, expected] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !expected) return false;
  const expectedKey = Buffer.from(expected, "base64url");
  const key = await boundedScrypt(password, Buffer.from(salt, "base64url"), expectedKey.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: 64 * 1024 * 1024,
  });
  return crypto.timingSafeEqual(key, expectedKey);
}

// Checked against when the username is unknown, so both failures take the same time.
let dummyHash: Promise<string> | undefined;
export function timingDummyHash(): Promise<string> {
  dummyHash ??= hashPassword(crypto.randomBytes(16).toString("hex"));
  return dummyHash;
}
