"use client";

import Link from "next/link";
import { secondaryButton } from "@/components/ui/field";
import { timeAgo } from "@/lib/client/relative-time";
import { useMarkRead, type Notification } from "@/lib/client/notifications";
import { InboxAnswer } from "@/components/notifications/inbox-answer";

/** One notification: what happened, where and when; its task; and, for an open question, its answers. */
export function NotificationItem({ notification, onNavigate }: { notification: Notification; onNavigate: () => void }) {
  const markRead = useMarkRead();
  const unread = notification.read_at === null;
  const question = notification.question;
  return (
    <li
      aria-label={notification.title}
      data-unread={unread || undefined}
      className={`rounded-md border p-3 text-sm ${unread ? "border-blue-300 bg-blue-50 dark:border-blue-800 dark:bg-blue-950/40" : "border-slate-200 dark:border-slate-800"}`}
    >
      <p className="font-medium">
        {unread ? <span className="sr-only">Unread: </span> : null}
        {notification.title}
      </p>
      <p className="text-xs text-slate-600 dark:text-slate-400">
        {notification.workspace_name ?? "A workspace"} · <time dateTime={notification.created_at}>{timeAgo(notification.created_at)}</time>
      </p>
      {notification.body ? <p className="mt-1 line-clamp-3 whitespace-pre-wrap break-words">{notification.body}</p> : null}
      {question?.status === "open" ? (
        <InboxAnswer notification={notification} options={question.options} />
      ) : question?.answer ? (
        <p className="mt-1 text-slate-700 dark:text-slate-300">Answered: {question.answer}</p>
      ) : null}
      <div className="mt-2 flex flex-wrap gap-2">
        {notification.task_id ? (
          <Link
            href={`/w/${notification.workspace_id}?task=${encodeURIComponent(notification.task_id)}`}
            onClick={() => {
              if (unread) markRead.mutate({ ids: [notification.id] });
              onNavigate();
            }}
            className={`${secondaryButton} min-h-11`}
          >
            Open task
          </Link>
        ) : null}
        {unread ? (
          <button
            type="button"
            className={`${secondaryButton} min-h-11`}
            disabled={markRead.isPending}
            onClick={() => markRead.mutate({ ids: [notification.id] })}
          >
            Mark read
          </button>
        ) : null}
      </div>
    </li>
  );
}
