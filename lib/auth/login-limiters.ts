import crypto from "node:crypto";
import { RateLimiterMemory, RateLimiterPostgres, type RateLimiterAbstract } from "rate-limiter-flexible";
import { connection } from "@/lib/db/client";
import { loginAttemptsPerMinute, loginFailuresPerUsernamePerHour } from "@/lib/config";

// The two counters of the login limits (lib/auth/login.ts). On PostgreSQL they live in the database
// (rate-limiter-flexible's RateLimiterPostgres on the table login_limits, made by a migration), so
// N instances behind a balancer still allow LOGIN_RATE_LIMIT_PER_MINUTE failures a minute, not N
// times as many. Each attempt costs one upsert. Should the database not answer, each instance
// counts in memory meanwhile (the insurance limiter) rather than letting every attempt through.
// On PGlite one process owns the database, so memory is the whole count.

export interface LoginLimiter {
  /** Counts one attempt; rejects with a RateLimiterRes once the limit is reached. */
  consume(key: string): Promise<unknown>;
  /** Gives one attempt back (the password was right). */
  reward(key: string): Promise<unknown>;
}

export interface LoginLimiters {
  /** Per username and client address, a minute. */
  perClient: LoginLimiter;
  /** Per username from clients not seen signing in as that user, an hour. */
  perUsername: LoginLimiter;
}

const state = globalThis as typeof globalThis & { __taskboardLoginLimiters?: Promise<LoginLimiters> };

export function loginLimiters(): Promise<LoginLimiters> {
  state.__taskboardLoginLimiters ??= open().catch((error) => {
    state.__taskboardLoginLimiters = undefined;
    throw error;
  });
  return state.__taskboardLoginLimiters;
}

async function open(): Promise<LoginLimiters> {
  const perClient = { points: loginAttemptsPerMinute(), duration: 60 };
  const perUsername = { points: loginFailuresPerUsernamePerHour(), duration: 3600 };
  const { kind, pool } = await connection();
  if (kind !== "postgresql" || !pool) {
    return { perClient: hashed(new RateLimiterMemory(perClient)), perUsername: hashed(new RateLimiterMemory(perUsername)) };
  }
  const shared = (keyPrefix: string, options: { points: number; duration: number }) =>
    hashed(
      new RateLimiterPostgres({
        storeClient: pool,
        storeType: "pool",
        tableName: "login_limits",
        tableCreated: true,
        keyPrefix,
        ...options,
        insuranceLimiter: new RateLimiterMemory(options),
      }),
    );
  return { perClient: shared("client", perClient), perUsername: shared("username", perUsername) };
}

/** Keys are usernames and addresses: the table holds only their hashes, of a fixed length. */
function hashed(limiter: RateLimiterAbstract): LoginLimiter {
  const digest = (key: string) => crypto.createHash("sha256").update(key).digest("base64url");
  return {
    consume: (key) => limiter.consume(digest(key), 1),
    reward: (key) => limiter.reward(digest(key), 1),
  };
}
