import { z } from "zod";
import { INT32_MAX, queryInt } from "@/lib/platform/schema-primitives";

export const connectCodehostBody = z.object({
  installation_id: z
    .int()
    .min(1)
    .max(INT32_MAX)
    .optional()
    .describe(
      "The GitHub App installation id. Left out: the installation recorded by Connect GitHub. Only server administrators may name another one (403 otherwise).",
    ),
  repo: z
    .string()
    .trim()
    .max(200)
    .regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, "owner/name")
    .describe('The repository as "owner/name".'),
});

export const codehostStatus = z.object({
  connected: z.boolean(),
  installation_id: z
    .int()
    .nullable()
    .describe("Shown to the workspace's owners only; null for members and agent tokens, who have no use for it."),
  repo: z.string().nullable(),
  app_configured: z
    .boolean()
    .describe(
      "True when the server has GITHUB_APP_ID and a private key that parses (GITHUB_APP_PRIVATE_KEY or GITHUB_APP_PRIVATE_KEY_FILE).",
    ),
  oauth_configured: z
    .boolean()
    .describe(
      "True when the server also has GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET, which Connect GitHub needs to ask GitHub who installed the App.",
    ),
  reason: z
    .string()
    .optional()
    .describe("Present while disconnected by GitHub: why (the App was uninstalled or suspended, the repository was removed)."),
});

export const webhookAnswer = z.object({
  delivery_id: z.string().describe("X-GitHub-Delivery of the delivery."),
  status: z.enum(["accepted", "duplicate"]).describe("duplicate: this delivery was received before, and nothing changed."),
});

export const installResponse = z.object({
  install_url: z.string().describe("The GitHub App's installation page; send the user there."),
  state: z.string().describe("Signed; names the workspace and the user; valid for one hour. GitHub hands it back to the callback."),
});

export const installCallbackQuery = z.object({
  installation_id: queryInt(z.int().min(1).max(INT32_MAX)),
  code: z
    .string()
    .max(200)
    .optional()
    .describe(
      "GitHub's authorization code, sent when the App requests user authorization during installation; required (400 in words without it).",
    ),
  state: z.string().min(1).max(2000),
  setup_action: z.string().max(50).optional(),
});

export const installationRepositoriesResponse = z.object({
  installation_id: z.int(),
  items: z.array(
    z.object({
      full_name: z.string().describe('"owner/name", the value for PUT …/codehost `repo`.'),
      private: z.boolean(),
      default_branch: z.string().nullable(),
      html_url: z.string(),
    }),
  ),
});

export const deliveriesQuery = z.object({
  limit: queryInt(z.int().min(1).max(50)).default(10).describe("How many of the newest deliveries, 1 to 50."),
});

export const deliveriesResponse = z.object({
  items: z.array(
    z.object({
      delivery_id: z.string(),
      event: z.string(),
      action: z.string().nullable(),
      received_at: z.string(),
      result: z.string().nullable().describe("What the board did with it; follow-up work (mergeability, checks) is appended."),
      error: z.string().nullable().describe("Why applying it failed, if it did."),
    }),
  ),
});

export const githubSettings = z.object({
  merged_to_done: z.boolean().describe("A merged pull request moves its linked task to done (default true)."),
  auto_open_pull_request: z
    .boolean()
    .describe("When an agent run succeeds with commits on the task's branch, push it and open a pull request (default false)."),
  auto_fix_conflicts: z
    .boolean()
    .describe("When a linked pull request turns conflicted, start fix-conflicts; at most once per head commit (default false)."),
  auto_fix_checks: z
    .boolean()
    .describe(
      "When a linked pull request's checks fail, start an agent run with the failing checks; at most once per head commit (default false).",
    ),
});

export const githubSettingsPatch = githubSettings.partial();
