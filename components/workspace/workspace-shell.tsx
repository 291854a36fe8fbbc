"use client";

import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useState } from "react";
import { AppHeader } from "@/components/app-header";
import { ToastProvider } from "@/components/ui/toast";
import { CodehostBadge } from "@/components/workspace/codehost-badge";
import { HelpDialog } from "@/components/workspace/help-dialog";
import { QuestionPanel } from "@/components/questions/question-panel";
import { RunDialog } from "@/components/runs/run-view";
import { RunAgentDialog } from "@/components/runs/run-agent-dialog";
import { TaskDialog } from "@/components/board/task-dialog";
import { WorkspaceContext, type WorkspaceUi } from "@/components/workspace/workspace-context";
import { useOpenQuestions } from "@/lib/client/questions";
import { workspaceQuery } from "@/lib/client/workspaces";
import { useWorkspaceEvents } from "@/lib/client/use-workspace-events";

export function WorkspaceShell({ workspaceId, username, children }: { workspaceId: string; username: string; children: React.ReactNode }) {
  return (
    <ToastProvider>
      <Shell workspaceId={workspaceId} username={username}>
        {children}
      </Shell>
    </ToastProvider>
  );
}

function Shell({ workspaceId, username, children }: { workspaceId: string; username: string; children: React.ReactNode }) {
  const pathname = usePathname();
  const router = useRouter();
  const live = useWorkspaceEvents(workspaceId);
  const [questionsOpen, setQuestionsOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const [execution, setExecution] = useState<{ id: string; title: string } | null>(null);
  const [taskId, setTaskId] = useState<string | null>(null);
  // A link to one task (the pull request body's "Task #tb-N" link) is the board with ?task=<id>.
  const linkedTaskId = useSearchParams().get("task");
  const openTaskId = taskId ?? linkedTaskId;
  const [runTaskId, setRunTaskId] = useState<string | null>(null);
  const workspace = useQuery(workspaceQuery(workspaceId));
  const openQuestions = useOpenQuestions(workspaceId);

  const watchExecution = useCallback((id: string, title: string) => setExecution({ id, title }), []);
  const ui = useMemo<WorkspaceUi>(
    () => ({
      workspaceId,
      questionsOpen,
      setQuestionsOpen,
      openHelp: () => setHelpOpen(true),
      watchExecution,
      openTask: setTaskId,
      runAgent: setRunTaskId,
    }),
    [workspaceId, questionsOpen, watchExecution],
  );

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.metaKey || event.ctrlKey || event.altKey || isTyping(event.target)) return;
      if (document.querySelector("dialog[open]")) return;
      if (event.key === "q") {
        event.preventDefault();
        setQuestionsOpen((open) => !open);
      } else if (event.key === "?") {
        event.preventDefault();
        setHelpOpen(true);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  if (workspace.isError) {
    return (
      <>
        <AppHeader username={username} />
        <main className="mx-auto max-w-xl px-6 py-16 text-center">
          <h1 className="mb-2 text-xl font-semibold">This workspace cannot be opened</h1>
          <p className="mb-6 text-slate-600 dark:text-slate-400">
            {workspace.error.message}. It may have been deleted, or you are not a member.
          </p>
          <button type="button" className="text-blue-700 underline dark:text-blue-300" onClick={() => router.push("/")}>
            Back to your workspaces
          </button>
        </main>
      </>
    );
  }

  const base = `/w/${workspaceId}`;
  const nav = [
    { href: base, label: "Board" },
    { href: `${base}/projects`, label: "Projects" },
    { href: `${base}/schedules`, label: "Schedules" },
    { href: `${base}/settings`, label: "Settings" },
  ];
  const openCount = openQuestions.data?.length ?? 0;

  return (
    <WorkspaceContext.Provider value={ui}>
      <div className="flex h-screen min-w-[1024px] flex-col">
        <AppHeader username={username}>
          <span className="max-w-32 truncate font-medium xl:max-w-44 text-slate-700 dark:text-slate-200" title={workspace.data?.name}>
            {workspace.data?.name ?? <span className="inline-block h-4 w-28 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />}
          </span>
          <nav aria-label="Workspace" className="flex gap-1">
            {nav.map((item) => {
              const current = pathname === item.href;
              return (
                <Link
                  key={item.href}
                  href={item.href}
                  aria-current={current ? "page" : undefined}
                  className={`rounded-md px-3 py-1.5 text-sm ${current ? "bg-slate-200 font-medium dark:bg-slate-800" : "text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"}`}
                >
                  {item.label}
                </Link>
              );
            })}
          </nav>
          <div className="ml-auto flex items-center gap-3">
            <CodehostBadge workspaceId={workspaceId} />
            <span
              role="status"
              title={live === "live" ? "Live: changes by others appear at once" : "Live updates are reconnecting"}
              className={`text-xs whitespace-nowrap ${live === "live" ? "text-green-800 dark:text-green-300" : "text-amber-800 dark:text-amber-300"}`}
            >
              {live === "live" ? "●" : "○"}
              <span className="sr-only xl:not-sr-only xl:ml-1">{live === "live" ? "Live" : "Offline"}</span>
            </span>
            <button
              type="button"
              onClick={() => setQuestionsOpen((open) => !open)}
              aria-expanded={questionsOpen}
              aria-controls="questions-panel"
              className="relative rounded-md border border-slate-300 px-3 py-1.5 text-sm whitespace-nowrap hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
            >
              Questions
              <span
                data-testid="open-question-count"
                aria-label={`${openCount} open`}
                className={`ml-2 rounded-full px-2 py-0.5 text-xs font-semibold ${openCount > 0 ? "bg-amber-600 text-white dark:bg-amber-500 dark:text-slate-950" : "bg-slate-200 text-slate-700 dark:bg-slate-700 dark:text-slate-200"}`}
              >
                {openCount}
              </span>
            </button>
            <button
              type="button"
              onClick={() => setHelpOpen(true)}
              aria-label="Keyboard shortcuts"
              className="rounded-md border border-slate-300 px-2.5 py-1.5 text-sm hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
            >
              ?
            </button>
          </div>
        </AppHeader>
        <div className="flex min-h-0 flex-1">
          <div className="min-w-0 flex-1 overflow-auto">{children}</div>
          {questionsOpen ? <QuestionPanel workspaceId={workspaceId} onClose={() => setQuestionsOpen(false)} /> : null}
        </div>
      </div>
      <HelpDialog open={helpOpen} onClose={() => setHelpOpen(false)} />
      {openTaskId ? (
        <TaskDialog
          workspaceId={workspaceId}
          taskId={openTaskId}
          onClose={() => {
            setTaskId(null);
            // Closing a linked task drops the parameter, so it does not open again.
            if (linkedTaskId) router.replace(pathname);
          }}
        />
      ) : null}
      {runTaskId ? (
        <RunAgentDialog
          workspaceId={workspaceId}
          taskId={runTaskId}
          onClose={() => setRunTaskId(null)}
          onStarted={(id, title) => {
            setRunTaskId(null);
            watchExecution(id, title);
          }}
        />
      ) : null}
      {/* Last, so it opens above the task dialog a history row was clicked in. */}
      {execution ? (
        <RunDialog
          key={execution.id}
          workspaceId={workspaceId}
          executionId={execution.id}
          title={execution.title}
          onClose={() => setExecution(null)}
          onWatch={watchExecution}
        />
      ) : null}
    </WorkspaceContext.Provider>
  );
}

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}
