import fs from "node:fs";
import path from "node:path";

// Every setting the server reads from the environment, in one place (the README's table mirrors it).

export function dataDir(): string {
  return path.resolve(/*turbopackIgnore: true*/ process.env.DATA_DIR || "./data");
}

/** DATA_DIR, created if missing: owner-only (0700), since it holds the database, auth-secret and agents' work. */
export function ensureDataDir(): string {
  const dir = dataDir();
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
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

export function githubAppConfigured(): boolean {
  return Boolean(process.env.GITHUB_APP_ID && process.env.GITHUB_APP_PRIVATE_KEY);
}

function positiveInt(raw: string | undefined, fallback: number): number {
  const value = Number(raw);
  return raw && Number.isInteger(value) && value > 0 ? value : fallback;
}
