"use client";

import { useEffect, useState } from "react";
import { useUnreadCount } from "@/lib/client/notifications";
import { InboxDialog } from "@/components/notifications/inbox-dialog";

/** The bell in the top bar: the unread count (also in the tab's title), and the inbox it opens. */
export function NotificationBell() {
  const unread = useUnreadCount().data ?? 0;
  const [open, setOpen] = useState(false);
  useUnreadTitle(unread);
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-label={`Notifications, ${unread} unread`}
        aria-haspopup="dialog"
        className="relative inline-flex min-h-9 min-w-9 items-center justify-center rounded-md border border-slate-300 px-2 py-1.5 text-sm hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
      >
        <BellIcon />
        {unread > 0 ? (
          <span
            data-testid="unread-count"
            aria-hidden="true"
            className="absolute -top-1.5 -right-1.5 min-w-5 rounded-full bg-red-700 px-1 text-center text-xs leading-5 font-semibold text-white"
          >
            {unread > 99 ? "99+" : unread}
          </span>
        ) : null}
      </button>
      <InboxDialog open={open} onClose={() => setOpen(false)} />
    </>
  );
}

const PREFIX = /^\(\d+\+?\) /;

/** "(3) Board · Taskboard": the unread count leads the tab's title, and leaves it at 0. */
function useUnreadTitle(unread: number) {
  useEffect(() => {
    const apply = () => {
      const base = document.title.replace(PREFIX, "");
      const next = unread > 0 ? `(${unread > 99 ? "99+" : unread}) ${base}` : base;
      if (document.title !== next) document.title = next;
    };
    apply();
    // Next sets the title when the page changes, at times by putting a new <title> element in the
    // head: watch the whole head, and put the count back in front of the new title. Writing the title
    // again only when it differs ends the loop its own write starts.
    const observer = new MutationObserver(apply);
    observer.observe(document.head, { childList: true, subtree: true, characterData: true });
    return () => observer.disconnect();
  }, [unread]);
}

function BellIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2">
      <path d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9" strokeLinecap="round" strokeLinejoin="round" />
      <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" strokeLinecap="round" />
    </svg>
  );
}
