import path from "node:path";

// Every setting the server reads from the environment, in one place (the README's table mirrors it).

export function dataDir(): string {
  return path.resolve(/*turbopackIgnore: true*/ process.env.DATA_DIR || "./data");
}

export function databaseUrl(): string | undefined {
  return process.env.DATABASE_URL || undefined;
}

export function databaseKind(): "pglite" | "postgresql" {
  return databaseUrl() ? "postgresql" : "pglite";
}

export function accessTokenExpireDays(): number {
  return positiveInt(process.env.ACCESS_TOKEN_EXPIRE_DAYS, 7);
}

export function refreshTokenExpireDays(): number {
  return positiveInt(process.env.REFRESH_TOKEN_EXPIRE_DAYS, 30);
}

export function loginAttemptsPerMinute(): number {
  return positiveInt(process.env.LOGIN_RATE_LIMIT_PER_MINUTE, 10);
}

/** Failed logins per username per hour from clients that have not signed in as that user before. */
export function loginFailuresPerUsernamePerHour(): number {
  return positiveInt(process.env.LOGIN_RATE_LIMIT_PER_USERNAME_PER_HOUR, 50);
}

/** How many reverse proxies in front of the server to believe about the client's address. */
export function trustProxyHops(): number {
  const value = Number(process.env.TRUST_PROXY ?? 0);
  return Number.isInteger(value) && value > 0 ? value : 0;
}

export function githubAppConfigured(): boolean {
  return Boolean(process.env.GITHUB_APP_ID && process.env.GITHUB_APP_PRIVATE_KEY);
}

function positiveInt(raw: string | undefined, fallback: number): number {
  const value = Number(raw);
  return raw && Number.isInteger(value) && value > 0 ? value : fallback;
}
