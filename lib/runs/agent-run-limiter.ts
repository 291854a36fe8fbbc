import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { connection } from "@/lib/db/client";
import { agentStartedRunsPerMinute } from "@/lib/config";
import { HttpError } from "@/lib/platform/errors";

// The per-workspace rate of runs started with agents' tokens (AGENT_STARTED_RUNS_PER_MINUTE), kept
// like the login limits (lib/auth/login-limiters.ts): on PostgreSQL in the database, so N instances
// still allow the rate once, in the rate-limiter-flexible table login_limits under a prefix of its
// own (the keys are workspace ids); on PGlite, where one process owns the database, in memory.

const state = globalThis as typeof globalThis & { __taskboardAgentRunLimiter?: Promise<RateLimiterAbstract> };

function limiter(): Promise<RateLimiterAbstract> {
  state.__taskboardAgentRunLimiter ??= open().catch((error) => {
    state.__taskboardAgentRunLimiter = undefined;
    throw error;
  });
  return state.__taskboardAgentRunLimiter;
}

async function open(): Promise<RateLimiterAbstract> {
  const options = { points: agentStartedRunsPerMinute(), duration: 60 };
  const { kind, pool } = await connection();
  if (kind !== "postgresql" || !pool) return new RateLimiterMemory(options);
  return new RateLimiterPostgres({
    storeClient: pool,
    storeType: "pool",
    tableName: "login_limits",
    tableCreated: true,
    keyPrefix: "agent_runs",
    ...options,
    insuranceLimiter: new RateLimiterMemory(options),
  });
}

/** Counts one agent-started run of the workspace; 429 with Retry-After once the minute's runs are used up. */
export async function takeAgentRunSlot(workspaceId: string): Promise<void> {
  try {
    await (await limiter()).consume(workspaceId, 1);
  } catch (rejected) {
    if (!(rejected instanceof RateLimiterRes)) throw rejected;
    const retryAfter = Math.max(1, Math.ceil(rejected.msBeforeNext / 1000));
    throw new HttpError(
      429,
      `Agents of this workspace have started ${agentStartedRunsPerMinute()} runs in the last minute (AGENT_STARTED_RUNS_PER_MINUTE); try again in ${retryAfter} s`,
      { "Retry-After": String(retryAfter) },
    );
  }
}
