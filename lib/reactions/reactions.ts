import { boardAutomation } from "@/lib/reactions/board-automation";
import { fixConflicts } from "@/lib/reactions/fix-conflicts";
import { githubAfterRun } from "@/lib/reactions/github-after-run";
import type { Reaction } from "@/lib/reactions/reaction";
import { startUnblocked } from "@/lib/reactions/start-unblocked";
import { startAssignedAgents } from "@/lib/reactions/start-assigned-agents";
import { startMentionedAgents } from "@/lib/reactions/start-mentioned-agents";
import { slackQuestions } from "@/lib/reactions/slack-questions";
import { slackConfig } from "@/lib/config";
import { notifyPeople } from "@/lib/reactions/notify-people";
import { notifyRuns } from "@/lib/reactions/notify-runs";

// Every reaction the server runs. A new one is added here, and its migration starts existing
// workspaces at their log's head (see the reaction_cursors migration), or it would replay history.
export const REACTIONS: readonly Reaction[] = [
  boardAutomation,
  startUnblocked,
  githubAfterRun,
  fixConflicts,
  startAssignedAgents,
  startMentionedAgents,
  // Only on a server with a Slack app: elsewhere every question would claim its cursor for nothing
  // (a write waiting with `Prefer: wait=reactions` would wait on it). Its cursors stay where they
  // are meanwhile, so questions still open when Slack is configured are posted then.
  ...(slackConfig() ? [slackQuestions] : []),
  notifyPeople,
  notifyRuns,
];

export function reactionNamed(name: string): Reaction | undefined {
  return REACTIONS.find((reaction) => reaction.name === name);
}

/**
 * What every reaction reads, for SQL: `json_to_recordset($n::json) AS r(${READ_COLUMNS})` is a row
 * per reaction, and READS_EVENT_SQL says whether its event `x` is one it reads (its types, and its
 * `match` where it has one): the same test as nextEventsAfter's (lib/events/consume-log.ts).
 */
export const REACTION_READS = JSON.stringify(
  REACTIONS.map((reaction) => ({
    name: reaction.name,
    types: reaction.types,
    field: reaction.match?.field ?? null,
    vals: reaction.match?.values ?? null,
    contains: reaction.match?.contains ? JSON.stringify(reaction.match.contains) : null,
  })),
);
export const READ_COLUMNS = "name text, types text[], field text, vals text[], contains text";
export const READS_EVENT_SQL =
  "(x.type = ANY(r.types) AND (r.field IS NULL OR x.data->>r.field = ANY(r.vals)) AND (r.contains IS NULL OR x.data::jsonb @> r.contains::jsonb))";
