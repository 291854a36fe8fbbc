// The shapes the browser reads from the API, inferred from the zod schemas the server validates and
// documents with. Type-only imports: none of zod reaches the browser's bundle.
import type { z } from "zod";
import type { apiKey, createdApiKey } from "@/lib/auth/schemas";
import type {
  codehostStatus,
  connectCodehostBody,
  deliveriesResponse,
  githubSettings,
  installationRepositoriesResponse,
  installResponse,
} from "@/lib/github/connection/schemas";
import type { createProjectBody, projectResponse } from "@/lib/projects/schemas";
import type { questionResponse } from "@/lib/questions/schemas";
import type { reactionStateResponse } from "@/lib/reactions/schemas";
import type { execution, executionLog, logEntry, runHistoryItem } from "@/lib/runs/schemas";
import type { createScheduleBody, scheduleResponse, triggerResponse } from "@/lib/schedules/schemas";
import type { boardResponse, paginatedCardsResponse, taskCard } from "@/lib/tasks/card-schemas";
import type {
  createTaskBody,
  paginatedTasksResponse,
  taskResponse,
  taskRunResponse,
  updateTaskBody,
  waitingForRunner,
} from "@/lib/tasks/schemas";
import type { createdRunner, createRunnerBody, runnerRecord, workspaceRunners } from "@/lib/dispatch/schemas";
import type { user, userMatch } from "@/lib/users/schemas";
import type { acceptedInvitation, createdInvitation, invitation, invitationPreview } from "@/lib/invitations/schemas";
import type { runUsage } from "@/lib/runner-protocol";
import type { member, updateWorkspaceBody, workspace, workspaceWithRole } from "@/lib/workspaces/schemas";
import type { dependenciesResponse } from "@/lib/dependencies/schemas";
import type { activityResponse } from "@/lib/activity/schemas";
import type { commentPage } from "@/lib/comments/schemas";
import type {
  createdWebhookResponse,
  createWebhookBody,
  deliveriesResponse as webhookDeliveriesResponse,
  deliveryResponse as webhookDeliveryResponse,
  updateWebhookBody,
  webhookResponse,
} from "@/lib/webhooks/schemas";
import type { taskDiffResponse } from "@/lib/worktrees/schemas";
import type { ColumnKey, SORT_FIELDS } from "@/lib/tasks/columns";
import { ACTIVE_RUN_STATUSES as ACTIVE } from "@/lib/runs/statuses";
import type { slackStatus } from "@/lib/slack/schemas";

export type SortBy = (typeof SORT_FIELDS)[number];
export type SortDir = "asc" | "desc";
export interface ColumnSort {
  by: SortBy;
  dir: SortDir;
}
export const DEFAULT_SORT: ColumnSort = { by: "position", dir: "asc" };

export type Question = z.output<typeof questionResponse>;
export type TaskRun = z.output<typeof taskRunResponse>;
export type RunHistoryItem = z.output<typeof runHistoryItem>;
/** A task in full: the task dialog's, a write's answer, an event's. It is a Card as well (its fields are a superset). */
export type Task = Omit<z.output<typeof taskResponse>, "status"> & { status: ColumnKey };
export type TaskPage = Omit<z.output<typeof paginatedTasksResponse>, "items"> & { items: Task[] };
/** What the board holds and shows of a task (lib/tasks/card-schemas.ts); details are read when a dialog opens. */
export type Card = Omit<z.output<typeof taskCard>, "status"> & { status: ColumnKey };
export type CardPage = Omit<z.output<typeof paginatedCardsResponse>, "items"> & { items: Card[] };
export type BoardColumnPage = Omit<z.output<typeof boardResponse>["columns"][number], "items"> & { items: Card[] };
export type Project = z.output<typeof projectResponse>;
export type Execution = z.output<typeof execution>;
export type ExecutionLog = z.output<typeof executionLog>;
export type Schedule = z.output<typeof scheduleResponse>;
export type TriggerResult = z.output<typeof triggerResponse>;
export type CodehostStatus = z.output<typeof codehostStatus>;
export type SlackStatus = z.output<typeof slackStatus>;
export type GithubInstall = z.output<typeof installResponse>;
export type GithubRepositories = z.output<typeof installationRepositoriesResponse>;
export type GithubDeliveries = z.output<typeof deliveriesResponse>;
export type GithubSettings = z.output<typeof githubSettings>;
export type Member = z.output<typeof member>;
export type Invitation = z.output<typeof invitation>;
export type CreatedInvitation = z.output<typeof createdInvitation>;
export type InvitationPreview = z.output<typeof invitationPreview>;
export type AcceptedInvitation = z.output<typeof acceptedInvitation>;
export type UserMatch = z.output<typeof userMatch>;
export type MemberRole = Member["role"];
export type ApiKey = z.output<typeof apiKey>;
export type CreatedApiKey = z.output<typeof createdApiKey>;
export type Workspace = z.output<typeof workspace>;
export type WorkspaceWithRole = z.output<typeof workspaceWithRole>;
export type WorkspaceChanges = z.input<typeof updateWorkspaceBody>;
export type Webhook = z.output<typeof webhookResponse>;
export type ReactionState = z.output<typeof reactionStateResponse>;
export type CreatedWebhook = z.output<typeof createdWebhookResponse>;
export type WebhookDelivery = z.output<typeof webhookDeliveryResponse>;
export type WebhookDeliveries = z.output<typeof webhookDeliveriesResponse>;
export type CurrentUser = z.output<typeof user>;
export type Runner = z.output<typeof runnerRecord>;
export type CreatedRunner = z.output<typeof createdRunner>;
export type WorkspaceRunners = z.output<typeof workspaceRunners>;

export type Dependencies = z.output<typeof dependenciesResponse>;
export type DependencyTask = Dependencies["blocked_by"][number];
export type ActivityPage = z.output<typeof activityResponse>;
export type ActivityItem = ActivityPage["items"][number];
export type CommentPage = z.output<typeof commentPage>;
export type Comment = CommentPage["items"][number];
export interface TaskSearchPage {
  items: Task[];
  has_more: boolean;
}

export const ACTIVE_RUN_STATUSES = new Set<string>(ACTIVE);
/** Why a queued run has not started, in words; null when a runner can take it (docs/runners.md). */
export type WaitingForRunner = z.output<typeof waitingForRunner>;

// Request bodies, as the browser sends them (zod's input side: defaults may be left out).
export type CreateTaskInput = z.input<typeof createTaskBody>;
export type UpdateTaskInput = z.input<typeof updateTaskBody>;
export type ProjectInput = z.input<typeof createProjectBody>;
export type ScheduleInput = z.input<typeof createScheduleBody>;
export type CodehostConnectInput = z.input<typeof connectCodehostBody>;
export type CreateWebhookInput = z.input<typeof createWebhookBody>;
export type UpdateWebhookInput = z.input<typeof updateWebhookBody>;
export type CreateRunnerInput = z.input<typeof createRunnerBody>;

// ---- Agent runs (docs/agents.md): the structured log, usage and the task's diff.

/** One stored log entry: `type` is ACP's sessionUpdate (or output, prompt, permission, stop, error, git). */
export type LogEntry = z.output<typeof logEntry>;
export type RunLogPage = ExecutionLog;
/** Only what the agent reported; a missing figure is null, never guessed. */
export type RunUsage = z.output<typeof runUsage>;

/** The task branch's changes against its base: files, then hunks (lib/worktrees/schemas.ts). */
export type TaskDiff = z.output<typeof taskDiffResponse>;
export type DiffFile = TaskDiff["files"][number];
export type DiffLine = DiffFile["hunks"][number]["lines"][number];

/** A review comment on a line of the diff, sent back with "Request changes". */
export interface ReviewComment {
  path: string;
  line: number;
  body: string;
}

export interface StartRunInput {
  instructions?: string;
  agent_id?: string;
  comments?: ReviewComment[];
}
