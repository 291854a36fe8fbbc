import crypto from "node:crypto";
import { RateLimiterRes } from "rate-limiter-flexible";
import type { Db } from "@/lib/db/client";
import { HttpError } from "@/lib/platform/errors";
import { passwordLoginEnabled } from "@/lib/config";
import { loginLimiters, type LoginLimiter } from "@/lib/auth/login-limiters";
import { authSecret } from "@/lib/crypto/auth-secret";
import { timingDummyHash, verifyPassword } from "@/lib/auth/password";

// Login limits (docs/api.md, "Login limits"). Two counters, both taken BEFORE the password is checked
// and given back when it was right, so parallel guesses are counted before any of them finishes:
// - per username and client address: LOGIN_RATE_LIMIT_PER_MINUTE attempts a minute;
// - per username, from any address: LOGIN_RATE_LIMIT_PER_USERNAME_PER_HOUR attempts an hour, not
//   counted for a client that has signed in as that user before (a signed cookie from an earlier
//   login, or the same address as an earlier successful login), so guessing from many addresses
//   is slowed without locking the real user out of the device they use.
// The counts are kept in PostgreSQL, shared by all instances (lib/auth/login-limiters.ts); on PGlite
// in memory. The known addresses are remembered per instance; the signed cookie works on any.

export const BAD_CREDENTIALS = "Incorrect username or password";
export const MAX_USERNAME_LENGTH = 64;
export const MAX_PASSWORD_LENGTH = 256;
export const KNOWN_DEVICE_COOKIE = "taskboard_device";
const KNOWN_FOR_MS = 90 * 86_400_000;
const MAX_KNOWN_ADDRESSES = 100_000;

const state = globalThis as typeof globalThis & { __taskboardKnownAddresses?: Map<string, number> };

function knownAddresses(): Map<string, number> {
  state.__taskboardKnownAddresses ??= new Map();
  return state.__taskboardKnownAddresses;
}

export interface LoginAttempt {
  username: string;
  password: string;
  /** lib/auth/client-address.ts */
  client: string;
  /** The Cookie header of the request, for the known-device cookie. */
  cookies: string | null;
}

export async function checkCredentials(db: Db, attempt: LoginAttempt) {
  if (!passwordLoginEnabled()) throw passwordLoginOff();
  const { username, password, client } = attempt;
  // PostgreSQL text cannot hold NUL; such a name belongs to no user (next-auth's sign-in form does not
  // go through the API's validation, which refuses it with 422).
  if (username.length > MAX_USERNAME_LENGTH || password.length > MAX_PASSWORD_LENGTH || username.includes("\0")) {
    throw new HttpError(401, BAD_CREDENTIALS, { "WWW-Authenticate": "Bearer" });
  }
  const name = username.toLowerCase();
  const { perClient, perUsername } = await loginLimiters();
  const clientKey = `${name}\n${client}`;
  await take(perClient, clientKey, "Too many failed login attempts");
  const known = knownClient(name, client, attempt.cookies);
  if (!known) await take(perUsername, name, "Too many failed login attempts for this user from new devices");

  const user = await db.user.findUnique({ where: { username } });
  // An unknown user costs one hash check too, so response time does not reveal who exists.
  const valid = await verifyPassword(password, user?.passwordHash ?? (await timingDummyHash()));
  if (!user || !valid) throw new HttpError(401, BAD_CREDENTIALS, { "WWW-Authenticate": "Bearer" });
  // Successful logins do not count: scripts that log in often are never held back.
  await perClient.reward(clientKey);
  if (!known) await perUsername.reward(name);
  if (user.disabled) throw new HttpError(403, "This account is disabled");
  rememberAddress(name, client);
  return user;
}

/** PASSWORD_LOGIN=false: a 403 that says what to use instead (docs/sso.md). */
export function passwordLoginOff() {
  return new HttpError(
    403,
    "Password login is turned off on this server: sign in with single sign-on in the browser, and use an API key for scripts",
  );
}

/** A Set-Cookie value that marks this device as one that signed in as `username`. */
export function knownDeviceCookie(username: string): string {
  const nonce = crypto.randomBytes(12).toString("base64url");
  const value = `${nonce}.${deviceMac(nonce, username.toLowerCase())}`;
  return `${KNOWN_DEVICE_COOKIE}=${value}; Path=/api/auth; Max-Age=${KNOWN_FOR_MS / 1000}; HttpOnly; SameSite=Lax`;
}

async function take(limiter: LoginLimiter, key: string, message: string) {
  try {
    await limiter.consume(key);
  } catch (rejected) {
    if (!(rejected instanceof RateLimiterRes)) throw rejected;
    const retryAfter = Math.max(1, Math.ceil(rejected.msBeforeNext / 1000));
    throw new HttpError(429, `${message}; try again in ${retryAfter} s`, { "Retry-After": String(retryAfter) });
  }
}

function knownClient(name: string, client: string, cookies: string | null): boolean {
  const knownUntil = knownAddresses().get(`${name}\n${client}`);
  if (knownUntil && knownUntil > Date.now()) return true;
  const cookie = cookieValue(cookies, KNOWN_DEVICE_COOKIE);
  if (!cookie) return false;
  const [nonce, mac] = cookie.split(".");
  if (!nonce || !mac) return false;
  const expected = Buffer.from(deviceMac(nonce, name));
  const given = Buffer.from(mac);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

function rememberAddress(name: string, client: string) {
  const known = knownAddresses();
  const key = `${name}\n${client}`;
  known.delete(key);
  known.set(key, Date.now() + KNOWN_FOR_MS);
  // A Map keeps insertion order, so the first key is the one least recently used.
  if (known.size > MAX_KNOWN_ADDRESSES) known.delete(known.keys().next().value!);
}

function deviceMac(nonce: string, name: string): string {
  return crypto.createHmac("sha256", authSecret()).update(`known-device\n${nonce}\n${name}`).digest("base64url");
}

function cookieValue(header: string | null, name: string): string | null {
  for (const part of (header ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=");
  }
  return null;
}
