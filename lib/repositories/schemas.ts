import { z } from "zod";
import { remoteUrlProblem } from "@/lib/repositories/remote-url";

// A workspace's git repository: a remote URL, or a path on the server (administrators only: it
// reads the server's own disk), with the workspace's own credential for the remote. URL rules:
// lib/repositories/remote-url.ts.

const noControl = /^[^\s\0]+$/;

export const repositoryCredentialBody = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("access_token"),
    token: z.string().min(1).max(4096).regex(noControl, "A token without spaces or control characters"),
    username: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[^\s\0:]+$/, "A user name without spaces or ':'")
      .optional()
      .describe("The HTTP Basic user name sent with the token (default x-access-token: GitHub; oauth2 for GitLab)."),
  }),
  z.object({
    type: z.literal("deploy_key"),
    private_key: z
      .string()
      .max(16_384)
      .regex(
        /^-----BEGIN [A-Z ]*PRIVATE KEY-----\r?\n[^\0]+-----END [A-Z ]*PRIVATE KEY-----\s*$/,
        "An unencrypted private key in PEM or OpenSSH form",
      )
      .describe("An ssh private key without a passphrase, for ssh:// or user@host:path remotes."),
  }),
]);

export const setRepositoryBody = z.object({
  url: z
    .string()
    .trim()
    .min(1)
    .max(2000)
    .superRefine((url, context) => {
      const problem = remoteUrlProblem(url);
      if (problem) context.addIssue({ code: "custom", message: problem });
    })
    .describe(
      "Remote URL (https://, ssh://, user@host:path; no credentials inside), or an absolute path / file:// URL on the server (administrators only).",
    ),
  default_branch: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .regex(/^(?!-)(?!.*\.\.)[A-Za-z0-9._/-]+$/, "A branch name")
    .default("main"),
  worktree_retention_days: z
    .int()
    .min(0)
    .max(3650)
    .optional()
    .describe(
      "Worktrees of tasks done for longer than this many days are removed (their branches stay). Default 7; left out on a change: kept.",
    ),
  credential: repositoryCredentialBody
    .nullable()
    .optional()
    .describe(
      "The workspace's credential for the remote, write-only (stored encrypted, never returned): an access token for https, a deploy key for ssh. null removes it; left out: kept while the URL's host stays the same, dropped when it changes.",
    ),
});

export const repositoryCredentialResponse = z.object({
  type: z.enum(["access_token", "deploy_key"]),
  username: z.string().nullable().describe("The access token's user name; null for a deploy key."),
  set_at: z.string(),
});

export const repositoryResponse = z.object({
  workspace_id: z.string(),
  url: z.string(),
  default_branch: z.string(),
  worktree_retention_days: z.int(),
  worktree_count: z.int().describe("Task worktrees on the server's disk now."),
  worktree_disk_bytes: z.int().describe("Their files' size in bytes, as measured after each run (the shared clone not counted)."),
  credential: repositoryCredentialResponse.nullable().describe("Which credential is stored, never the credential itself."),
  created_at: z.string(),
  updated_at: z.string(),
});
