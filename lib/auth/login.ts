import { RateLimiterMemory } from "rate-limiter-flexible";
import type { Db } from "@/lib/db/client";
import { HttpError } from "@/lib/api/errors";
import { loginAttemptsPerMinute } from "@/lib/config";
import { timingDummyHash, verifyPassword } from "@/lib/auth/password";

// Failed attempts are counted per username and client. Counting failures only means people and
// scripts that log in often are never locked out, while guessing is capped at N tries a minute.
// In memory: each instance keeps its own count, which bounds guessing per instance.
const state = globalThis as typeof globalThis & { __taskboardLoginLimiter?: RateLimiterMemory };

function limiter(): RateLimiterMemory {
  state.__taskboardLoginLimiter ??= new RateLimiterMemory({ points: loginAttemptsPerMinute(), duration: 60 });
  return state.__taskboardLoginLimiter;
}

export const BAD_CREDENTIALS = "Incorrect username or password";

export async function checkCredentials(db: Db, username: string, password: string, client: string) {
  const key = `${username.toLowerCase()}\n${client}`;
  const attempts = await limiter().get(key);
  if (attempts && attempts.consumedPoints >= loginAttemptsPerMinute()) {
    const retryAfter = Math.max(1, Math.ceil(attempts.msBeforeNext / 1000));
    throw new HttpError(429, `Too many failed login attempts; try again in ${retryAfter} s`, {
      "Retry-After": String(retryAfter),
    });
  }
  const user = await db.user.findUnique({ where: { username } });
  // An unknown user costs one hash check too, so response time does not reveal who exists.
  const valid = await verifyPassword(password, user?.passwordHash ?? (await timingDummyHash()));
  if (!user || !valid) {
    await limiter().penalty(key, 1);
    throw new HttpError(401, BAD_CREDENTIALS, { "WWW-Authenticate": "Bearer" });
  }
  if (user.disabled) throw new HttpError(403, "This account is disabled");
  return user;
}

export function clientAddress(headers: Headers | Record<string, unknown>): string {
  const forwarded = headers instanceof Headers ? headers.get("x-forwarded-for") : headers["x-forwarded-for"];
  const first = typeof forwarded === "string" ? forwarded.split(",")[0]?.trim() : undefined;
  return first || "local";
}
