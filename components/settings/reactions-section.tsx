"use client";

import { useQuery } from "@tanstack/react-query";
import { reactionsQuery } from "@/lib/client/reactions";
import type { ReactionState } from "@/lib/client/types";
import { card } from "@/components/settings/settings-card";
import { SectionState } from "@/components/ui/section-state";
import { formatDateTime, formatTime } from "@/lib/client/dates";

// Settings → Automations (owners): what the board does after each change, whether it has caught up
// with the workspace's events, and its newest failure in words (a failing one is retried).

const muted = "text-slate-600 dark:text-slate-400";

export function ReactionsSection({ workspaceId }: { workspaceId: string }) {
  const reactions = useQuery(reactionsQuery(workspaceId));
  return (
    <section aria-labelledby="reactions-title" className={card}>
      <h2 id="reactions-title" className="mb-1 font-semibold">
        Automations
      </h2>
      <p className={`mb-3 text-sm ${muted}`}>
        What the board does after each change, in order, from the workspace&apos;s events. A failure is retried with back-off and shown
        here.
      </p>
      <SectionState query={reactions} what="the automations">
        {(data) => (
          <ul className="space-y-3" aria-label="Automations">
            {data.map((reaction) => (
              <ReactionItem key={reaction.name} reaction={reaction} />
            ))}
          </ul>
        )}
      </SectionState>
    </section>
  );
}

function ReactionItem({ reaction }: { reaction: ReactionState }) {
  const failing = reaction.attempts > 0;
  return (
    <li className="text-sm">
      <div className="flex flex-wrap items-baseline gap-2">
        <span className="font-medium">{reaction.name}</span>
        <span className={failing ? "text-red-700 dark:text-red-400" : muted}>
          {failing
            ? `failing: attempt ${reaction.attempts}, next try ${reaction.next_attempt_at ? formatTime(reaction.next_attempt_at) : "soon"}`
            : reaction.behind > 0
              ? `${reaction.behind} event(s) to go`
              : "up to date"}
        </span>
      </div>
      <p className={muted}>{reaction.description}</p>
      {reaction.last_error ? (
        <p className="mt-1 text-red-700 dark:text-red-400">
          Last error{reaction.last_error_at ? ` (${formatDateTime(reaction.last_error_at)})` : ""}: {reaction.last_error}
        </p>
      ) : null}
    </li>
  );
}
