import fs from "node:fs";
import path from "node:path";

// Every setting the server reads from the environment, in one place (docs/configuration.md mirrors it).
// The bottom of the code: it imports nothing of lib/, so the settings built on these (the runner's
// and the GitHub App's in lib/platform/, the sandbox's in lib/sandbox/) can import it without a loop.

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

/**
 * The embedded database's buffer pool (PostgreSQL's shared_buffers), in MB. PGlite touches all of it
 * as it starts: 128 MB (PostgreSQL's default) costs about 0.5 s of CPU and 120 MB of memory more than
 * 16 MB. Short-lived servers with little data (the tests') set less.
 */
export function pgliteSharedBuffersMb(): number {
  return positiveInt(process.env.PGLITE_SHARED_BUFFERS_MB, 128);
}

/** After this long without a word from its agent, a running run shows "no output for N min". */
export function agentSilenceSeconds(): number {
  return positiveInt(process.env.AGENT_SILENCE_SECONDS, 300);
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

/** How many agent-started runs may lead to a run (a person's run is 0 deep): AGENT_RUN_CHAIN_MAX. */
export function agentRunChainMax(): number {
  return positiveInt(process.env.AGENT_RUN_CHAIN_MAX, 3);
}

/** Runs agents' tokens may start per workspace per minute: AGENT_STARTED_RUNS_PER_MINUTE. */
export function agentStartedRunsPerMinute(): number {
  return positiveInt(process.env.AGENT_STARTED_RUNS_PER_MINUTE, 10);
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

// The GitHub App's settings (GITHUB_APP_ID, GITHUB_APP_PRIVATE_KEY[_FILE], GITHUB_API_URL, GITHUB_APP_SLUG,
// GITHUB_WEBHOOK_SECRET) are read by lib/platform/github-app-settings.ts, which parses and checks the key.

/** PASSWORD_LOGIN=false turns off sign-in with username and password (API and form); docs/sso.md. */
export function passwordLoginEnabled(): boolean {
  return !/^(false|0|no|off)$/i.test((process.env.PASSWORD_LOGIN ?? "").trim());
}

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Shown on the login page: "Sign in with <name>". */
  name: string;
  scopes: string;
  /** Lower-case email domains whose verified addresses may create a user. */
  allowedDomains: string[];
  /** Values of the `groups` claim that may create a user. */
  allowedGroups: string[];
}

/** Single sign-on settings (docs/sso.md); null unless issuer, client id and secret are all set. */
export function oidcConfig(): OidcConfig | null {
  const issuer = process.env.OIDC_ISSUER?.trim().replace(/\/+$/, "");
  const clientId = process.env.OIDC_CLIENT_ID?.trim();
  const clientSecret = process.env.OIDC_CLIENT_SECRET;
  if (!issuer || !clientId || !clientSecret) return null;
  return {
    issuer,
    clientId,
    clientSecret,
    name: process.env.OIDC_NAME?.trim() || "single sign-on",
    scopes: process.env.OIDC_SCOPES?.trim() || "openid email profile",
    allowedDomains: list(process.env.OIDC_ALLOWED_DOMAINS).map((domain) => domain.toLowerCase().replace(/^@/, "")),
    allowedGroups: list(process.env.OIDC_ALLOWED_GROUPS),
  };
}

/**
 * The address people use to reach the board (`https://board.example.com`): PUBLIC_URL, else
 * NEXTAUTH_URL, else null. First setup answers requests for its host (lib/auth/setup-request.ts).
 */
export function publicUrl(): URL | null {
  for (const raw of [process.env.PUBLIC_URL, process.env.NEXTAUTH_URL]) {
    if (!raw?.trim()) continue;
    try {
      return new URL(raw.trim());
    } catch {
      // not a URL: ignored, as if unset
    }
  }
  return null;
}

/** How often an event stream sends a heartbeat and re-checks its caller's credential and membership. */
export function eventsHeartbeatMs(): number {
  return positiveInt(process.env.EVENTS_HEARTBEAT_SECONDS, 15) * 1000;
}

/** Live event streams one user may hold open at once (per instance); the next gets 429. */
export function eventStreamsPerUser(): number {
  return positiveInt(process.env.EVENT_STREAMS_PER_USER, 20);
}

/** Bytes an event stream may hold for a client that is not reading before it stops reading the log, then drops the client. */
export function eventStreamBufferBytes(): number {
  return positiveInt(process.env.EVENT_STREAM_BUFFER_BYTES, 1024 * 1024);
}

/** The event log keeps events this many days... */
export function eventRetentionDays(): number {
  return positiveInt(process.env.EVENT_RETENTION_DAYS, 30);
}

/** ...and at most this many per workspace, the newest. */
export function eventRetentionEvents(): number {
  return positiveInt(process.env.EVENT_RETENTION_EVENTS, 10_000);
}

/** How often the event log is pruned to the two limits above. */
export function eventPruneIntervalMs(): number {
  return positiveInt(process.env.EVENT_PRUNE_INTERVAL_SECONDS, 300) * 1000;
}

/** A changed file whose blobs (old + new) weigh more than this gets a summary in a task's diff, never its content. */
export function diffMaxFileBytes(): number {
  return positiveInt(process.env.DIFF_MAX_FILE_BYTES, 1024 * 1024);
}

/** The blobs of all files shown with hunks in one task's diff weigh at most this together. */
export function diffMaxBytes(): number {
  return positiveInt(process.env.DIFF_MAX_BYTES, 8 * 1024 * 1024);
}

/** The largest bundle of a run's branch a runner may upload (PUT /api/runner/executions/{id}/bundle); 413 beyond. */
export function bundleMaxBytes(): number {
  return positiveInt(process.env.RUNNER_BUNDLE_MAX_BYTES, 256 * 1024 * 1024);
}

/** A positive whole number from the environment, or the fallback when unset or not one. */
export function positiveInt(raw: string | undefined, fallback: number): number {
  const value = Number(raw);
  return raw && Number.isInteger(value) && value > 0 ? value : fallback;
}

/** A positive number (fractions allowed) from the environment, or the fallback. */
export function positiveNumber(raw: string | undefined, fallback: number): number {
  const value = Number(raw);
  return raw && Number.isFinite(value) && value > 0 ? value : fallback;
}

function list(raw: string | undefined): string[] {
  return (raw ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/** How long a runner's claim on a run holds without a heartbeat, and how long a runner counts as online after its last call. */
export function runnerLeaseSeconds(): number {
  return positiveNumber(process.env.RUNNER_LEASE_SECONDS, 30);
}

/**
 * RUN_STOP_WAIT_SECONDS: how long a cancel's answer waits for the runner holding the run to report
 * its agent stopped (lib/runs/await-runner.ts); 0 answers at once. Tests shorten it: a run a test
 * drives by hand over the protocol reports nothing unless the test does.
 */
export function runStopWaitMs(): number {
  return waitMs(process.env.RUN_STOP_WAIT_SECONDS, 15_000);
}

/**
 * RUN_START_WAIT_SECONDS: how long the answer to a run's start waits for an online runner with a
 * free slot to start its agent (lib/runs/await-runner.ts), so it can say `running`; 0 answers at
 * once (`queued`). Tests whose runners are driven by hand over the protocol set 0: their runner
 * claims only when the test says so.
 */
export function runStartWaitMs(): number {
  return waitMs(process.env.RUN_START_WAIT_SECONDS, 3000);
}

/** Seconds (fractions allowed, 0 for none) from the environment, in milliseconds; the fallback otherwise. */
function waitMs(raw: string | undefined, fallbackMs: number): number {
  const text = raw?.trim();
  const value = Number(text);
  return text && Number.isFinite(value) && value >= 0 ? value * 1000 : fallbackMs;
}

// RUNNERS_REQUIRE_SANDBOX follows AGENT_SANDBOX by default, so it is read beside it (lib/sandbox/mode.ts).

/** How long an invitation link stays valid (INVITATION_EXPIRE_DAYS, default 7). */
export function invitationExpireDays(): number {
  return positiveNumber(process.env.INVITATION_EXPIRE_DAYS, 7);
}

/** Outgoing mail (invitations): SMTP_URL (`smtp://user:pass@host:587`) and MAIL_FROM; null when either is unset. */
export function smtpConfig(): { url: string; from: string } | null {
  const url = process.env.SMTP_URL?.trim();
  const from = process.env.MAIL_FROM?.trim();
  return url && from ? { url, from } : null;
}

/** How long a person with the digest on collects notifications into one mail (docs/email.md): EMAIL_DIGEST_MINUTES, 15. */
export function emailDigestMs(): number {
  const minutes = Number(process.env.EMAIL_DIGEST_MINUTES ?? 15);
  return Number.isFinite(minutes) && minutes >= 0 ? minutes * 60_000 : 15 * 60_000;
}

/**
 * Replies to mailed questions (docs/email.md): read from the IMAP mailbox INCOMING_EMAIL_IMAP_URL
 * (imap://user:password@host:143, imaps:// for TLS; INCOMING_EMAIL_MAILBOX, INBOX by default), sent
 * to INCOMING_EMAIL_ADDRESS, which holds `%{key}` (reply+%{key}@board.example.com). Both or
 * nothing; an address without `%{key}` is refused at start.
 */
export function incomingEmailConfig(): { imapUrl: URL; address: string; mailbox: string } | null {
  const url = process.env.INCOMING_EMAIL_IMAP_URL?.trim();
  const address = process.env.INCOMING_EMAIL_ADDRESS?.trim();
  if (!url || !address) return null;
  if (address.split("%{key}").length !== 2 || !/^[^@\s]+@[^@\s]+$/.test(address)) {
    throw new Error(`INCOMING_EMAIL_ADDRESS must be one address holding %{key} once, like reply+%{key}@board.example.com (got ${address})`);
  }
  return { imapUrl: new URL(url), address, mailbox: process.env.INCOMING_EMAIL_MAILBOX?.trim() || "INBOX" };
}

/**
 * The Slack app (docs/slack.md): SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET, both or nothing, and
 * SLACK_API_URL (Slack's own by default; a fake Slack in tests). Null while unconfigured.
 */
export function slackConfig(): { botToken: string; signingSecret: string; apiUrl: string } | null {
  const botToken = process.env.SLACK_BOT_TOKEN?.trim();
  const signingSecret = process.env.SLACK_SIGNING_SECRET?.trim();
  if (!botToken || !signingSecret) return null;
  const apiUrl = (process.env.SLACK_API_URL?.trim() || "https://slack.com/api").replace(/\/+$/, "");
  return { botToken, signingSecret, apiUrl };
}

/**
 * Browser push's VAPID subject (docs/notifications.md, "Browser push"): how a push service reaches
 * the server's operator. VAPID_SUBJECT (a mailto: or https: URL), else `mailto:` and MAIL_FROM's
 * address, else the public URL when it is https, else mailto:taskboard@localhost.
 */
export function vapidSubject(): string {
  const set = process.env.VAPID_SUBJECT?.trim();
  if (set) return set;
  const from = process.env.MAIL_FROM?.trim().match(/<([^>]+)>/)?.[1] ?? process.env.MAIL_FROM?.trim();
  if (from) return `mailto:${from}`;
  const base = publicUrl();
  return base?.protocol === "https:" ? base.origin : "mailto:taskboard@localhost";
}

/**
 * PUSH_ALLOW_PRIVATE_ENDPOINTS lets push subscriptions point at loopback and private addresses (a
 * local push service, tests): `1` or `true` allows every such address, a comma-separated list of
 * addresses allows those alone. Unset: none.
 */
export function pushAllowPrivateEndpoints(): true | string[] {
  const raw = process.env.PUSH_ALLOW_PRIVATE_ENDPOINTS?.trim() ?? "";
  if (raw === "1" || raw === "true") return true;
  return raw
    .split(",")
    .map((address) => address.trim())
    .filter(Boolean);
}
