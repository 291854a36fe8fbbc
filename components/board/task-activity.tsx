"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { activityQuery } from "@/lib/client/dependencies";
import { secondaryButton } from "@/components/ui/field";
import { SectionState } from "@/components/ui/section-state";
import { formatDateTime } from "@/lib/client/dates";

// The task dialog's "Activity": the task's history from the workspace event log, newest first,
// 20 at a time ("Load older" asks for the next page).

export function TaskActivity({ workspaceId, taskId }: { workspaceId: string; taskId: string }) {
  const activity = useInfiniteQuery(activityQuery(workspaceId, taskId));
  const items = activity.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <section aria-labelledby="task-activity" className="mt-6">
      <h3 id="task-activity" className="mb-2 text-sm font-semibold">
        Activity
      </h3>
      <SectionState
        query={activity}
        what="the activity"
        skeleton="spinner"
        isEmpty={() => items.length === 0}
        empty="No activity recorded (older entries are pruned from the event log)."
      >
        {() => (
          <>
            <ol aria-label="Task activity, newest first" className="space-y-1.5">
              {items.map((item) => (
                <li key={item.id} className="flex flex-wrap items-baseline gap-x-2 text-sm">
                  <time dateTime={item.at} className="shrink-0 text-xs text-slate-600 tabular-nums dark:text-slate-400">
                    {formatDateTime(item.at)}
                  </time>
                  <span className="font-medium">{item.actor ? (item.actor.name ?? "someone") : "Taskboard"}</span>
                  {item.actor?.kind === "agent" ? <span className="text-xs text-slate-600 dark:text-slate-400">(agent)</span> : null}
                  <span className="min-w-0 break-words">{item.summary}</span>
                </li>
              ))}
            </ol>
            {activity.hasNextPage ? (
              <button
                type="button"
                className={`${secondaryButton} mt-2`}
                disabled={activity.isFetchingNextPage}
                onClick={() => activity.fetchNextPage()}
              >
                {activity.isFetchingNextPage ? "Loading older…" : "Load older"}
              </button>
            ) : null}
          </>
        )}
      </SectionState>
    </section>
  );
}
