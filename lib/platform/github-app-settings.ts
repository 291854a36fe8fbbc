import { createPrivateKey } from "node:crypto";
import fs from "node:fs";
import { z } from "zod";

// The GitHub App's settings, read from the environment (docs/configuration.md lists them).
// Functions take the environment as a parameter so tests can point one process at a fake GitHub.

const GITHUB_COM_API = "https://api.github.com";

const appEnv = z.object({
  GITHUB_APP_ID: z.string().trim().regex(/^\d+$/, "a number"),
  GITHUB_API_URL: z.url({ protocol: /^https?$/ }).default(GITHUB_COM_API),
  GITHUB_APP_SLUG: z
    .string()
    .trim()
    .regex(/^[a-z0-9-]+$/i)
    .optional()
    .or(z.literal("").transform(() => undefined)),
  GITHUB_CLIENT_ID: z.string().trim().optional(),
  GITHUB_CLIENT_SECRET: z.string().trim().optional(),
});

export type GithubAppSettings = {
  appId: number;
  privateKey: string;
  apiUrl: string;
  webUrl: string;
  slug: string | undefined;
  /**
   * The App's OAuth client (GITHUB_CLIENT_ID, GITHUB_CLIENT_SECRET), or null. Connecting a workspace
   * needs it: the setup callback trades GitHub's `code` for a user token to learn whom GitHub says
   * installed the App, since the installation id in the callback's address proves nothing.
   */
  oauth: { clientId: string; clientSecret: string } | null;
};

type Env = Record<string, string | undefined>;

/** The App's settings, or null when the server has no usable App id and private key. */
export function githubAppSettings(env: Env = process.env): GithubAppSettings | null {
  const parsed = appEnv.safeParse(env);
  const privateKey = privateKeyOf(env);
  if (!parsed.success || !privateKey) return null;
  const apiUrl = parsed.data.GITHUB_API_URL.replace(/\/+$/, "");
  const { GITHUB_CLIENT_ID: clientId, GITHUB_CLIENT_SECRET: clientSecret } = parsed.data;
  return {
    appId: Number(parsed.data.GITHUB_APP_ID),
    privateKey,
    apiUrl,
    webUrl: webUrlOf(apiUrl),
    slug: parsed.data.GITHUB_APP_SLUG,
    oauth: clientId && clientSecret ? { clientId, clientSecret } : null,
  };
}

/** True when the App can authenticate: an id and a private key that parses (from the variable or the file). */
export function appConfigured(env: Env = process.env): boolean {
  return githubAppSettings(env) !== null;
}

/** The webhook secret, or null when unset (the webhook route then refuses every delivery). */
export function githubWebhookSecret(env: Env = process.env): string | null {
  return env.GITHUB_WEBHOOK_SECRET || null;
}

/**
 * The web (and git, and OAuth) origin that belongs to an API URL: api.github.com → https://github.com;
 * GitHub Enterprise Server serves its API at https://HOST/api/v3 → https://HOST; anything else (a fake
 * GitHub in tests) serves both from one origin. @octokit/oauth-methods derives the host of
 * POST /login/oauth/access_token from the API URL by the same rule.
 */
export function webUrlOf(apiUrl: string): string {
  const url = new URL(apiUrl);
  if (url.hostname === "api.github.com") return "https://github.com";
  return url.origin + url.pathname.replace(/\/+$/, "").replace(/\/api\/v3$/, "");
}

function privateKeyOf(env: Env): string | null {
  let pem = env.GITHUB_APP_PRIVATE_KEY;
  if (!pem && env.GITHUB_APP_PRIVATE_KEY_FILE) {
    try {
      pem = fs.readFileSync(env.GITHUB_APP_PRIVATE_KEY_FILE, "utf8");
    } catch {
      return null;
    }
  }
  if (!pem) return null;
  // .env files and CI secrets often carry the PEM on one line with literal "\n".
  pem = pem.includes("\\n") ? pem.replace(/\\n/g, "\n") : pem;
  try {
    createPrivateKey(pem);
  } catch {
    return null;
  }
  return pem.trim() + "\n";
}
