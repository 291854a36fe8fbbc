import { positiveInt, positiveNumber } from "@/lib/config";

// The reactions' retry settings (docs/configuration.md).

/** The first retry's delay; each further one doubles, up to reactionRetryMaxDelayMs. */
export function reactionRetryBaseMs(): number {
  return positiveNumber(process.env.REACTION_RETRY_BASE_SECONDS, 5) * 1000;
}

export function reactionRetryMaxDelayMs(): number {
  return positiveNumber(process.env.REACTION_RETRY_MAX_DELAY_SECONDS, 600) * 1000;
}

/** Attempts at one event before the reaction gives up on it and goes on (its last_error says so). */
export function reactionMaxAttempts(): number {
  return positiveInt(process.env.REACTION_MAX_ATTEMPTS, 8);
}
