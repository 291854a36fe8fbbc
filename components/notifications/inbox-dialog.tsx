"use client";

import { useState } from "react";
import { Dialog } from "@/components/ui/dialog";
import { secondaryButton } from "@/components/ui/field";
import { INBOX_PAGE, useInbox, useMarkRead } from "@/lib/client/notifications";
import { NotificationItem } from "@/components/notifications/notification-item";

/** The inbox: every workspace's notifications, newest first, a page at a time; mark read, or all. */
export function InboxDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [offset, setOffset] = useState(0);
  const [unreadOnly, setUnreadOnly] = useState(false);
  const inbox = useInbox(offset, unreadOnly, open);
  const markRead = useMarkRead();
  const page = inbox.data;
  return (
    <Dialog open={open} onClose={onClose} title="Notifications">
      <div className="mb-3 flex flex-wrap items-center gap-2 text-sm">
        <label className="flex min-h-11 items-center gap-2">
          <input
            type="checkbox"
            checked={unreadOnly}
            onChange={(event) => {
              setUnreadOnly(event.target.checked);
              setOffset(0);
            }}
          />
          Unread only
        </label>
        <span className="text-slate-600 dark:text-slate-400">{page ? `${page.unread} unread` : ""}</span>
        <button
          type="button"
          className={`${secondaryButton} ml-auto min-h-11`}
          disabled={!page || page.unread === 0 || markRead.isPending}
          onClick={() => markRead.mutate({ all: true })}
        >
          Mark all read
        </button>
      </div>
      {inbox.isError ? <p role="alert">Could not load your notifications: {inbox.error.message}</p> : null}
      {page && page.items.length === 0 ? (
        <p className="py-6 text-center text-sm text-slate-600 dark:text-slate-400">
          {unreadOnly ? "Nothing unread." : "No notifications yet. Questions for you, mentions and your runs' ends arrive here."}
        </p>
      ) : null}
      <ul aria-label="Notifications" className="space-y-2">
        {page?.items.map((notification) => (
          <NotificationItem key={notification.id} notification={notification} onNavigate={onClose} />
        ))}
      </ul>
      {page && page.total > INBOX_PAGE ? (
        <nav aria-label="Pages" className="mt-3 flex items-center justify-between text-sm">
          <button
            type="button"
            className={`${secondaryButton} min-h-11`}
            disabled={offset === 0}
            onClick={() => setOffset(Math.max(0, offset - INBOX_PAGE))}
          >
            Newer
          </button>
          <span>
            {offset + 1}–{Math.min(offset + INBOX_PAGE, page.total)} of {page.total}
          </span>
          <button
            type="button"
            className={`${secondaryButton} min-h-11`}
            disabled={offset + INBOX_PAGE >= page.total}
            onClick={() => setOffset(offset + INBOX_PAGE)}
          >
            Older
          </button>
        </nav>
      ) : null}
    </Dialog>
  );
}
