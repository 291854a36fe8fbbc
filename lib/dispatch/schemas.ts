import { z } from "zod";
import { runnerLabel } from "@/lib/agents/schemas";

// Runners (docs/runners.md): registration by administrators under /api/runners.

export const RUNNER_STATUS = { online: "online", offline: "offline" } as const;

export const createRunnerBody = z.object({
  name: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .regex(/^[^\0\n\r]*$/, "one line, no null character"),
  capacity: z.int().min(1).max(64).default(2).describe("How many runs it takes at once."),
  labels: z
    .array(runnerLabel)
    .max(20)
    .default([])
    .describe("What it offers (docker, gpu…): a profile that requires labels runs only on runners with all of them."),
  dedicated: z
    .boolean()
    .default(false)
    .describe(
      "Takes only the jobs of workspaces whose owners chose it (PUT /api/workspaces/{id}/runners); false: every workspace that did not choose other runners.",
    ),
});

export const runnerParams = z.object({ runner_id: z.string() });

export const runnerRecord = z.object({
  id: z.string(),
  name: z.string(),
  capacity: z.int(),
  labels: z.array(z.string()),
  dedicated: z.boolean().describe("Takes only the jobs of workspaces that chose it"),
  status: z.enum([RUNNER_STATUS.online, RUNNER_STATUS.offline]).describe("online while it called within RUNNER_LEASE_SECONDS"),
  running: z.int().describe("Runs it holds now"),
  last_seen_at: z.string().nullable(),
  version: z.string().nullable().describe("What the runner reported"),
  sandbox: z.string().nullable().describe("What the runner reported: bubblewrap, or none (unsandboxed); null before its first call"),
  jobs_refused: z
    .string()
    .nullable()
    .describe("Why it gets no jobs, in words: it reported sandbox none and the server requires one (RUNNERS_REQUIRE_SANDBOX); else null"),
  created_at: z.string(),
});
export type RunnerRecord = z.output<typeof runnerRecord>;

/**
 * A runner.updated event's data (stream-only; docs/events.md): which runner came online or went
 * away. Workspace members see no more of it than runs already show (runner_name), so no labels,
 * capacity or version: the browser reads its queued runs' waiting_for_runner again.
 */
export const runnerEventData = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum([RUNNER_STATUS.online, RUNNER_STATUS.offline]),
});
export type RunnerEventData = z.output<typeof runnerEventData>;

export const createdRunner = runnerRecord.extend({
  token: z.string().describe("The runner's token, shown only in this answer; it works only under /api/runner/…"),
});

/** PUT /api/workspaces/{id}/runners: which runners may take the workspace's jobs. */
export const workspaceRunnersBody = z.object({
  runner_ids: z
    .array(z.string().min(1).max(100))
    .max(1000)
    .nullable()
    .describe("The runners that may take its jobs; null: every runner of the server (the default). An empty list: none, its runs wait."),
});

export const workspaceRunners = z.object({
  runner_ids: z.array(z.string()).nullable().describe("The runners its owners chose; null: every runner of the server"),
  require_sandbox: z
    .boolean()
    .describe("The server's RUNNERS_REQUIRE_SANDBOX: a runner that reports sandbox none gets no jobs of any workspace"),
  runners: z
    .array(
      z.object({
        id: z.string(),
        name: z.string(),
        status: z.enum([RUNNER_STATUS.online, RUNNER_STATUS.offline]),
        sandbox: z.string().nullable(),
        dedicated: z.boolean().describe("Takes only the jobs of workspaces that chose it: not one of 'every runner'"),
        allowed: z.boolean().describe("Whether the workspace's choice lets it take the workspace's jobs"),
        jobs_refused: z.string().nullable().describe("Why it gets no jobs at all (RUNNERS_REQUIRE_SANDBOX), whatever the choice"),
      }),
    )
    .describe("The server's runners, oldest first"),
});
export type WorkspaceRunners = z.output<typeof workspaceRunners>;
