import { z } from "zod";
import { INT32_MAX, queryInt } from "@/lib/platform/schema-primitives";

// The runner protocol (/api/runner/…, docs/runners.md "Protocol"): what a runner sends and gets, the
// one contract between the server and a runner process. Both sides import it: the server's routes
// and their domain functions (app/api/runner/, lib/dispatch/) and the runner (lib/runner-process/). It imports
// zod and the platform's zod building blocks only, never a domain of the server, so a runner process
// loads none of the board's schemas (tests/unit/module-dependencies.test.ts checks it). What the
// runner reports that the server keeps and serves as is (a run's usage, a branch's diff) is shaped
// here, and the server's own responses reuse these shapes.

export const SANDBOXES = ["bubblewrap", "none"] as const;
export const MAX_CLAIM_WAIT_SECONDS = 30;
export const MAX_LOG_BATCH = 5000;
/** Batches (runs) per log request: a runner's capacity is at most this (claimBody.free). */
export const MAX_LOG_RUNS = 64;
/** A diff's patch may be up to 16 MB (a runner's DIFF_MAX_BYTES is 8 MB by default); its request up to DIFF_REQUEST_MAX_BYTES. */
const DIFF_BODY_MAX_BYTES = 16 * 1024 * 1024;
export const DIFF_REQUEST_MAX_BYTES = 48 * 1024 * 1024;

export const executionParams = z.object({ execution_id: z.string() });
export const questionParams = z.object({ execution_id: z.string(), question_id: z.string() });

export const claimBody = z.object({
  version: z.string().trim().min(1).max(100).describe("The runner's version, shown in GET /api/runners"),
  sandbox: z.enum(SANDBOXES).describe("What confines its agents: bubblewrap, or none (shown in red in Settings → Runners)"),
  free: z.int().min(0).max(64).describe("Slots it has free now; the server never hands out more than the runner's capacity"),
  wait_seconds: z
    .int()
    .min(0)
    .max(MAX_CLAIM_WAIT_SECONDS)
    .default(25)
    .describe("Long poll: how long to hold the request open waiting for a queued run"),
});

/** The agent to start, as the profile was when the run was queued (lib/agents/resolve-run-agent.ts). */
const agentSnapshot = z
  .object({
    name: z.string(),
    kind: z.enum(["command", "acp"]),
    command: z.string(),
    args: z.array(z.string()),
    env_passthrough: z.array(z.string()),
    inherit_env: z.boolean().optional(),
  })
  .loose();

/** Tokens and cost as the agent reported them (never estimated); a task run's `usage`. */
export const runUsage = z.object({
  input_tokens: z.int().nullable(),
  output_tokens: z.int().nullable(),
  total_tokens: z.int().nullable(),
  cost: z.object({ amount: z.number(), currency: z.string() }).nullable(),
});
export type RunUsage = z.output<typeof runUsage>;

const diffLine = z.object({
  type: z.enum(["context", "add", "del"]),
  text: z.string().describe("The line without its +, - or space prefix."),
  old_line: z.int().nullable(),
  new_line: z.int().nullable(),
});

export const diffFile = z.object({
  path: z.string(),
  old_path: z.string().nullable().describe("The path before a rename; null otherwise."),
  status: z.enum(["added", "modified", "deleted", "renamed"]),
  additions: z.int(),
  deletions: z.int(),
  binary: z.boolean().describe("git's judgement; git also treats a file over the size limit as binary (see summary)."),
  summary: z
    .string()
    .nullable()
    .describe(
      'Why a text file has no hunks: "File too large to show: N bytes" (its blobs, old and new, weigh more than ' +
        "DIFF_MAX_FILE_BYTES; never loaded), or the whole diff reached its limit. Null when the hunks are shown.",
    ),
  hunks: z.array(z.object({ header: z.string().describe("The @@ line."), lines: z.array(diffLine) })),
});
export type DiffFile = z.output<typeof diffFile>;

const configPairs = z.array(z.tuple([z.string(), z.string()]));
/** lib/git/remote-access.ts RemoteAccess: how git reaches the one repository (its pin and credentials). */
export const remoteAccess = z.object({
  config: configPairs,
  secretConfig: configPairs.optional(),
  sshCommand: z.string().optional(),
  sshKey: z.string().optional(),
});

export const job = z.object({
  execution_id: z.string(),
  task_run_id: z.string(),
  workspace_id: z.string(),
  task: z.object({ id: z.string(), number: z.int(), title: z.string(), pr_url: z.string().nullable() }),
  trigger: z.string(),
  session_name: z.string(),
  instructions: z.string(),
  log_seq: z.int().min(0).describe("Entries its log holds already (a run handed back by another runner): the first batch's first_seq"),
  agent_id: z.string().nullable(),
  agent: agentSnapshot.nullable().describe("null: the runner's own default (AGENT_COMMAND, else the demo agent)"),
  resume_session_id: z.string().nullable().describe("An earlier run's ACP session to continue (session/load)"),
  token: z.string().describe("The agent's token: this workspace only, revoked when the run ends"),
  api_url: z.string(),
  mcp_url: z.string(),
  env: z.record(z.string(), z.string()).describe("TASKBOARD_* variables for the agent"),
  timeout_seconds: z.number(),
  lease_seconds: z.number().describe("Heartbeat well within this, or the run ends failed"),
  repository: z
    .object({
      url: z.string(),
      default_branch: z.string(),
      branch: z.string().describe("The task's branch: the agent works on it in the task's worktree"),
      access: remoteAccess.describe("How git reaches the remote, this repository only: pinned address and credentials"),
    })
    .nullable(),
});
export type Job = z.output<typeof job>;

export const claimResponse = z.object({
  job: job.nullable().describe("null: nothing to do within wait_seconds"),
  refused: z
    .string()
    .nullable()
    .describe(
      "Why this runner gets no jobs at all, in words (it reported sandbox none and the server requires one: RUNNERS_REQUIRE_SANDBOX); null when it gets them. The runner logs it.",
    ),
});

export const heartbeatBody = z.object({
  executions: z.array(z.string()).max(64).describe("The runs it holds; each one's lease is renewed"),
  wait_seconds: z
    .number()
    .min(0)
    .max(25)
    .default(0)
    .describe(
      "Hold the answer this long while none of the runs is to stop (long poll; at most a third of lease_seconds), answering as soon as one is: a cancel reaches the runner at once",
    ),
});
export const heartbeatResponse = z.object({
  executions: z.array(
    z.object({
      id: z.string(),
      cancel: z.boolean().describe("Stop the agent: the run was cancelled, finished elsewhere, or is no longer this runner's"),
      reason: z.string().nullable(),
    }),
  ),
  lease_seconds: z.number(),
});

const newEntry = z.object({
  type: z.string().min(1).max(100),
  update: z.record(z.string(), z.unknown()),
  at: z.iso.datetime({ offset: true }).optional(),
});

/** One run's new entries in a runner's log request. */
const logBatch = z.object({
  execution_id: z.string(),
  first_seq: z
    .int()
    .min(0)
    .max(INT32_MAX)
    .describe("The first entry's seq: a batch sent again is stored once (entries below the stored count are skipped)"),
  entries: z.array(newEntry).min(1).max(MAX_LOG_BATCH),
});

export const logBody = z.object({
  batches: z
    .array(logBatch)
    .min(1)
    .max(MAX_LOG_RUNS)
    .refine((batches) => batches.reduce((sum, batch) => sum + batch.entries.length, 0) <= MAX_LOG_BATCH, {
      message: `At most ${MAX_LOG_BATCH} entries per request`,
    })
    .describe("The new entries of the runner's runs, one batch per run, all stored in one transaction"),
});
export const logResponse = z.object({
  results: z
    .array(
      z.object({
        execution_id: z.string(),
        next_seq: z.int().nullable().describe("How many entries are stored: the next batch's first_seq (null when refused)"),
        error: z
          .object({ status: z.int(), detail: z.string() })
          .nullable()
          .describe(
            "A refused batch: 404 not a run this runner holds, 409 the run has ended or first_seq is past the stored entries (send from the stored count)",
          ),
      }),
    )
    .describe("One result per batch, in order; a refused batch does not stop the others (a request whose runs have all ended is 409)"),
});

/** Where the runner made a task's worktree: shown, never followed or deleted by the server (lib/git/worktree/sweep-worktrees.ts). */
const worktreePath = z
  .string()
  .min(1)
  .max(4096)
  .refine((path) => path.startsWith("/"), { message: "The worktree's path must be absolute (start with /)" })
  .refine((path) => !path.split("/").includes(".."), { message: "The worktree's path must not contain '..'" })
  .refine((path) => !path.includes("\0"), { message: "The worktree's path must not contain a NUL character" });

export const updateExecutionBody = z.object({
  runner_pid: z.int().min(1).max(INT32_MAX).optional().describe("The agent process started (the start's answer waits for it)"),
  acp_session_id: z.string().min(1).max(500).optional(),
  acp_session_loaded: z.boolean().optional(),
  model: z.string().min(1).max(500).optional(),
  worktree: z
    .object({ path: worktreePath, branch: z.string().min(1).max(255), bytes: z.int().min(0).optional() })
    .optional()
    .describe("The task's worktree on this runner"),
});

export const permissionBody = z.object({
  tool_call: z.object({ title: z.string().nullish(), kind: z.string().nullish(), rawInput: z.unknown().optional() }).loose(),
  options: z
    .array(z.object({ optionId: z.string().min(1).max(500), name: z.string().max(2000), kind: z.string().max(100) }))
    .min(1)
    .max(50),
});
export const permissionResponse = z.object({
  question_id: z.string(),
  title: z.string(),
  options: z.array(z.object({ option_id: z.string(), name: z.string(), kind: z.string() })),
});

export const answerQuery = z.object({
  wait_seconds: queryInt(z.int().min(0).max(MAX_CLAIM_WAIT_SECONDS)).default(25),
});
export const answerResponse = z.object({
  status: z.enum(["open", "answered", "gone"]).describe("gone: the question was deleted (answer the agent cancelled)"),
  option_id: z.string().nullable().describe("The agent's option the answer stands for; null when none (answer cancelled)"),
});

export const changes = z.object({
  commit_sha: z.string().max(100).nullable(),
  files_changed: z.int().min(0),
  lines_added: z.int().min(0),
  lines_removed: z.int().min(0),
});

export const finishBody = z.object({
  status: z.enum(["succeeded", "failed", "cancelled", "timed_out"]),
  exit_code: z.int().nullable().optional(),
  error_message: z.string().max(10_000).nullable().optional(),
  report: z
    .string()
    .max(256 * 1024)
    .nullable()
    .optional(),
  usage: runUsage.nullable().optional(),
  no_output: z.boolean().optional(),
  last_activity_at: z.iso.datetime({ offset: true }).nullable().optional(),
  changes: changes.optional().describe("The task branch's changes against its base, when the run had a repository"),
});

export const releaseBody = z.object({
  reason: z.string().trim().min(1).max(500).describe("Why the runner hands the run back, in words (it is shutting down)"),
});

/** The task branch's diff as the runner computed it after the run (lib/git/branch-diff.ts), stored for GET …/diff. */
export const diffBody = z.object({
  branch: z.string().min(1).max(255),
  base: z.string().min(1).max(255),
  base_sha: z.string().min(1).max(100),
  commit_sha: z.string().min(1).max(100),
  files_changed: z.int().min(0),
  lines_added: z.int().min(0),
  lines_removed: z.int().min(0),
  truncated: z.boolean(),
  files: z.array(diffFile).max(100_000),
  patch: z
    .string()
    .max(DIFF_BODY_MAX_BYTES)
    .describe("At most DIFF_MAX_BYTES of unified diff (50 lines of context); cut at a file's boundary"),
});

export const remoteBody = z
  .object({
    fresh: z.boolean().default(false),
    push: z
      .string()
      .min(1)
      .max(255)
      .optional()
      .describe("The branch the runner is about to push: 409 in words unless it is still the task's own branch"),
  })
  .optional();
export const remoteResponse = z.object({ url: z.string(), access: remoteAccess });

/** What the server did with a run's bundle (PUT …/bundle): taken into its clone, or why not in words. */
export const bundleResponse = z.object({
  branch: z.string().describe("The task's branch, the one ref taken from the bundle"),
  commit_sha: z.string().nullable().describe("The bundle's tip of that branch"),
  stored: z.boolean().describe("The server's clone has the branch at commit_sha now"),
  message: z.string().nullable().describe("Why it was not stored, in words (the runner logs it as a `git` entry); null when stored"),
});
