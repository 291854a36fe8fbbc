import { z } from "zod";

// A workspace's git repository: a remote URL, or a path on the server (administrators only: it
// reads the server's own disk). Transports that run programs (ext::, fd::) are never accepted.

const REMOTE = /^(https?:\/\/|ssh:\/\/|git:\/\/)[^\s\0]+$|^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:[^\s\0]+$/;
const LOCAL = /^(file:\/\/|\/)[^\0]+$/;

export const setRepositoryBody = z.object({
  url: z
    .string()
    .trim()
    .min(1)
    .max(2000)
    .refine((url) => REMOTE.test(url) || LOCAL.test(url), {
      message: "A git remote (https://, ssh://, git://, user@host:path) or an absolute path on the server",
    })
    .describe("Remote URL, or an absolute path / file:// URL on the server (administrators only)."),
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
});

export const repositoryResponse = z.object({
  workspace_id: z.string(),
  url: z.string(),
  default_branch: z.string(),
  worktree_retention_days: z.int(),
  worktree_count: z.int().describe("Task worktrees on the server's disk now."),
  worktree_disk_bytes: z.int().describe("Their files' size in bytes, as measured after each run (the shared clone not counted)."),
  created_at: z.string(),
  updated_at: z.string(),
});

export function isLocalRepository(url: string): boolean {
  return LOCAL.test(url);
}
