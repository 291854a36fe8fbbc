import { z } from "zod";

// What this app reads from GitHub's REST answers and webhook payloads: only the fields it uses, in the
// shapes GitHub documents (unknown fields pass through untouched and are ignored).

export const repoFullName = z
  .string()
  .regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, "owner/name")
  .describe('A repository as "owner/name".');

// ---- REST answers

export const repositoryItem = z.object({
  id: z.int(),
  full_name: repoFullName,
  private: z.boolean(),
  default_branch: z.string().optional(),
  html_url: z.string(),
});
export type RepositoryItem = z.infer<typeof repositoryItem>;

export const installationRepositories = z.object({
  total_count: z.int(),
  repositories: z.array(repositoryItem),
});

export const pullRequestDetail = z.object({
  number: z.int(),
  html_url: z.string(),
  state: z.enum(["open", "closed"]),
  draft: z.boolean().optional(),
  merged: z.boolean().optional(),
  merged_at: z.string().nullable().optional(),
  mergeable: z.boolean().nullable().optional(),
  mergeable_state: z.string().optional(),
  head: z.object({ ref: z.string(), sha: z.string() }),
  base: z.object({ ref: z.string() }),
});

export const checkRunItem = z.object({
  name: z.string(),
  status: z.string(),
  conclusion: z.string().nullable(),
  output: z.object({ title: z.string().nullable().optional(), summary: z.string().nullable().optional() }).optional(),
});
export type CheckRunItem = z.infer<typeof checkRunItem>;

export const checkRunsPage = z.object({ total_count: z.int(), check_runs: z.array(checkRunItem) });

// ---- Webhook payloads

const installationRef = z.object({ id: z.int() });
const account = z.object({ login: z.string() });
const repositoryRef = z.object({ full_name: repoFullName, default_branch: z.string().optional() });

export const pullRequestPayload = z.object({
  action: z.string(),
  number: z.int(),
  installation: installationRef.optional(),
  repository: repositoryRef,
  pull_request: z.object({
    number: z.int(),
    html_url: z.string(),
    state: z.enum(["open", "closed"]),
    draft: z.boolean().optional(),
    merged: z.boolean().nullable().optional(),
    title: z.string(),
    body: z.string().nullable(),
    // head.repo is null when the fork was deleted.
    head: z.object({ ref: z.string(), sha: z.string(), repo: z.object({ full_name: z.string() }).nullable().optional() }),
    base: z.object({ ref: z.string() }),
  }),
});

const suitePullRequest = z.object({ number: z.int() });

export const checkSuitePayload = z.object({
  action: z.string(),
  installation: installationRef.optional(),
  repository: repositoryRef,
  check_suite: z.object({
    head_sha: z.string(),
    status: z.string().nullable(),
    conclusion: z.string().nullable(),
    pull_requests: z.array(suitePullRequest),
  }),
});

export const checkRunPayload = z.object({
  action: z.string(),
  installation: installationRef.optional(),
  repository: repositoryRef,
  check_run: checkRunItem.extend({
    head_sha: z.string(),
    pull_requests: z.array(suitePullRequest),
  }),
});

const repositoryListItem = z.object({ full_name: repoFullName });

export const installationPayload = z.object({
  action: z.string(),
  installation: installationRef.extend({ account: account.optional() }),
  sender: account,
  repositories: z.array(repositoryListItem).optional(),
});

export const installationRepositoriesPayload = z.object({
  action: z.string(),
  installation: installationRef,
  sender: account,
  repository_selection: z.string().optional(),
  repositories_added: z.array(repositoryListItem),
  repositories_removed: z.array(repositoryListItem),
});

export const pushPayload = z.object({
  ref: z.string(),
  after: z.string(),
  deleted: z.boolean().optional(),
  installation: installationRef.optional(),
  repository: repositoryRef.extend({ default_branch: z.string() }),
});

export function splitRepo(fullName: string): { owner: string; repo: string } {
  const [owner, repo] = repoFullName.parse(fullName).split("/");
  return { owner, repo };
}
