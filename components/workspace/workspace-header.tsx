"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { AppHeader } from "@/components/app-header";
import { CodehostBadge } from "@/components/workspace/codehost-badge";
import { useQuery } from "@tanstack/react-query";
import { useOpenQuestions } from "@/lib/client/questions";
import { workspaceQuery } from "@/lib/client/workspaces";

/** The workspace's header: its name, the pages, the code host, live status, questions and help. */
export function WorkspaceHeader({
  workspaceId,
  username,
  name,
  live,
  questionsOpen,
  onToggleQuestions,
  onHelp,
}: {
  workspaceId: string;
  username: string;
  name: string | undefined;
  live: boolean;
  questionsOpen: boolean;
  onToggleQuestions: () => void;
  onHelp: () => void;
}) {
  const pathname = usePathname();
  const openQuestions = useOpenQuestions(workspaceId);
  const viewer = useQuery(workspaceQuery(workspaceId)).data?.role === "viewer";
  const base = `/w/${workspaceId}`;
  const nav = [
    { href: base, label: "Board" },
    { href: `${base}/projects`, label: "Projects" },
    { href: `${base}/schedules`, label: "Schedules" },
    { href: `${base}/settings`, label: "Settings" },
  ];
  const openCount = openQuestions.data?.length ?? 0;
  return (
    <AppHeader username={username} nav={nav}>
      {/* On a phone the name has a row of its own: beside the buttons it was cut to a letter or two. */}
      <span
        data-testid="workspace-name"
        className="min-w-0 flex-1 truncate font-medium text-slate-700 max-sm:order-last max-sm:basis-full md:max-w-32 md:flex-none xl:max-w-44 dark:text-slate-200"
        title={name}
      >
        {name ?? <span className="inline-block h-4 w-28 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />}
      </span>
      {viewer ? (
        <span
          title="You can read this workspace but not change it; ask an owner for the member role"
          className="rounded-full bg-slate-200 px-2 py-0.5 text-xs font-medium whitespace-nowrap text-slate-800 dark:bg-slate-700 dark:text-slate-100"
        >
          Viewer<span className="hidden sm:inline"> · read only</span>
        </span>
      ) : null}
      {/* Below md the pages are in the top bar's menu (components/phone-menu.tsx). */}
      <nav aria-label="Workspace" className="flex gap-1 max-md:hidden">
        {nav.map((item) => {
          const current = pathname === item.href;
          return (
            <Link
              key={item.href}
              href={item.href}
              aria-current={current ? "page" : undefined}
              className={`rounded-md px-3 py-1.5 text-sm whitespace-nowrap ${current ? "bg-slate-200 font-medium dark:bg-slate-800" : "text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"}`}
            >
              {item.label}
            </Link>
          );
        })}
      </nav>
      <div className="ml-auto flex shrink-0 items-center gap-2 sm:gap-3">
        {/* On a phone the workspace name needs the room; the code host is one tap away in Settings. */}
        <span className="max-sm:hidden">
          <CodehostBadge workspaceId={workspaceId} />
        </span>
        <span
          role="status"
          title={live ? "Live: changes by others appear at once" : "Live updates are reconnecting"}
          className={`text-xs whitespace-nowrap ${live ? "text-green-800 dark:text-green-300" : "text-amber-800 dark:text-amber-300"}`}
        >
          {live ? "●" : "○"}
          <span className="sr-only xl:not-sr-only xl:ml-1">{live ? "Live" : "Offline"}</span>
        </span>
        <button
          type="button"
          onClick={onToggleQuestions}
          aria-expanded={questionsOpen}
          aria-controls="questions-panel"
          // One name for a screen reader ("Questions, 2 open"), not the two pieces run together.
          aria-label={`Questions, ${openCount} open`}
          className="relative rounded-md border border-slate-300 px-2 py-1.5 text-sm whitespace-nowrap sm:px-3 hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
        >
          Questions
          <span
            data-testid="open-question-count"
            aria-hidden="true"
            className={`ml-1.5 rounded-full px-2 py-0.5 text-xs font-semibold ${openCount > 0 ? "bg-amber-600 text-white dark:bg-amber-500 dark:text-slate-950" : "bg-slate-200 text-slate-700 dark:bg-slate-700 dark:text-slate-200"}`}
          >
            {openCount}
          </span>
        </button>
        <button
          type="button"
          onClick={onHelp}
          aria-label="Keyboard shortcuts"
          className="rounded-md border border-slate-300 px-2.5 py-1.5 text-sm max-sm:hidden hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
        >
          ?
        </button>
      </div>
    </AppHeader>
  );
}
