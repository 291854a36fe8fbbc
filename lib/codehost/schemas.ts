import { z } from "zod";
import { INT32_MAX } from "@/lib/api/validation";

export const connectCodehostBody = z.object({
  installation_id: z.int().min(1).max(INT32_MAX).describe("The GitHub App installation id."),
  repo: z
    .string()
    .trim()
    .max(200)
    .regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, "owner/name")
    .describe('The repository as "owner/name".'),
});

export const codehostStatus = z.object({
  connected: z.boolean(),
  installation_id: z.int().nullable(),
  repo: z.string().nullable(),
  app_configured: z
    .boolean()
    .describe(
      "True when the server has GITHUB_APP_ID and a private key that parses (GITHUB_APP_PRIVATE_KEY or GITHUB_APP_PRIVATE_KEY_FILE).",
    ),
});
