"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { activityQuery } from "@/lib/client/dependencies";
import { commentsQuery, loadedComments, useCreateComment, useDeleteComment, useUpdateComment } from "@/lib/client/comments";
import { currentUserQuery } from "@/lib/client/current-user";
import { formatDateTime } from "@/lib/client/dates";
import type { ActivityItem, Comment } from "@/lib/client/types";
import { secondaryButton } from "@/components/ui/field";
import { SectionState } from "@/components/ui/section-state";
import { CommentBox } from "@/components/board/comment-box";
import { CommentItem } from "@/components/board/comment-item";
import { useWorkspaceUi } from "@/components/workspace/workspace-context";

// The task dialog's one timeline: its history from the event log and its comments, merged by time,
// newest last, with the comment box under it. Both are paged from the newest; "Load older" reads
// the next page of whichever has more. Others' comments arrive through the event stream.

type Entry = { at: string; activity: ActivityItem; comment?: never } | { at: string; comment: Comment; activity?: never };

export function TaskTimeline({ workspaceId, taskId }: { workspaceId: string; taskId: string }) {
  const activity = useInfiniteQuery(activityQuery(workspaceId, taskId));
  const comments = useInfiniteQuery(commentsQuery(workspaceId, taskId));
  const me = useQuery(currentUserQuery());
  const create = useCreateComment(workspaceId, taskId, me.data);
  const update = useUpdateComment(workspaceId, taskId);
  const remove = useDeleteComment(workspaceId, taskId);
  // A viewer reads the conversation and writes nothing (the server refuses it anyway).
  const { readOnly } = useWorkspaceUi();

  const entries: Entry[] = [
    ...(activity.data?.pages.flatMap((page) => page.items) ?? []).map((item) => ({ at: item.at, activity: item })),
    ...loadedComments(comments.data).map((comment) => ({ at: comment.created_at, comment })),
  ].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  const more = activity.hasNextPage || comments.hasNextPage;
  const loadingOlder = activity.isFetchingNextPage || comments.isFetchingNextPage;

  return (
    <section aria-labelledby="task-timeline" className="mt-6">
      <h3 id="task-timeline" className="mb-2 text-sm font-semibold">
        Activity and comments
      </h3>
      <SectionState query={activity} what="the activity" skeleton="spinner">
        {() => (
          <>
            {more ? (
              <button
                type="button"
                className={`${secondaryButton} mb-2`}
                disabled={loadingOlder}
                onClick={() => {
                  if (activity.hasNextPage) void activity.fetchNextPage();
                  if (comments.hasNextPage) void comments.fetchNextPage();
                }}
              >
                {loadingOlder ? "Loading older…" : "Load older"}
              </button>
            ) : null}
            {comments.isError ? <p className="text-sm text-red-700 dark:text-red-400">Could not load the comments.</p> : null}
            {entries.length === 0 ? (
              <p className="text-sm text-slate-600 dark:text-slate-400">Nothing yet: no activity or comments recorded.</p>
            ) : (
              <ol aria-label="Task timeline, newest last" className="space-y-2">
                {entries.map((entry) =>
                  entry.comment ? (
                    <CommentItem
                      key={`c-${entry.comment.id}`}
                      comment={entry.comment}
                      mine={!readOnly && entry.comment.author.kind === "user" && entry.comment.author.id === me.data?.id}
                      saving={update.isPending && update.variables?.id === entry.comment.id}
                      error={
                        update.isError && update.variables?.id === entry.comment.id
                          ? `Not saved: ${update.error.message}`
                          : remove.isError && remove.variables === entry.comment.id
                            ? `Not deleted: ${remove.error.message}`
                            : null
                      }
                      onSave={(body, done) => update.mutate({ id: entry.comment.id, body }, { onSuccess: done })}
                      onDelete={() => remove.mutate(entry.comment.id)}
                    />
                  ) : (
                    <ActivityEntry key={`a-${entry.activity.id}`} item={entry.activity} />
                  ),
                )}
              </ol>
            )}
          </>
        )}
      </SectionState>
      {readOnly ? null : (
        <CommentBox
          taskId={taskId}
          pending={create.isPending}
          error={create.isError ? create.error.message : null}
          onSend={(body, restore) => create.mutate(body, { onError: restore })}
        />
      )}
    </section>
  );
}

function ActivityEntry({ item }: { item: ActivityItem }) {
  return (
    <li className="flex flex-wrap items-baseline gap-x-2 px-1 text-sm">
      <time dateTime={item.at} className="shrink-0 text-xs text-slate-600 tabular-nums dark:text-slate-400">
        {formatDateTime(item.at)}
      </time>
      <span className="font-medium">{item.actor ? (item.actor.name ?? "someone") : "Taskboard"}</span>
      {item.actor?.kind === "agent" ? <span className="text-xs text-slate-600 dark:text-slate-400">(agent)</span> : null}
      <span className="min-w-0 break-words">{item.summary}</span>
    </li>
  );
}
