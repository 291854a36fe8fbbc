"use client";

import { useRouter, useSearchParams } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { AppHeader } from "@/components/app-header";
import { ToastProvider } from "@/components/ui/toast";
import { WorkspaceHeader } from "@/components/workspace/workspace-header";
import { HelpDialog } from "@/components/workspace/help-dialog";
import { QuestionPanel } from "@/components/questions/question-panel";
import { RunDialog } from "@/components/runs/run-view";
import { RunAgentDialog } from "@/components/runs/run-agent-dialog";
import { TaskDialog } from "@/components/board/task-dialog";
import { WorkspaceContext, type WorkspaceUi } from "@/components/workspace/workspace-context";
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
  const router = useRouter();
  const live = useWorkspaceEvents(workspaceId);
  const [questionsOpen, setQuestionsOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const [execution, setExecution] = useState<{ id: string; title: string } | null>(null);
  // The open task is in the address (?task=<id>): a link opens it, and Back closes what a click opened.
  const openTaskId = useSearchParams().get("task");
  const pushedTask = useRef(false);
  useEffect(() => {
    if (!openTaskId) pushedTask.current = false;
  }, [openTaskId]);
  const openTask = useCallback((id: string) => {
    const url = new URL(window.location.href);
    const replacing = url.searchParams.has("task");
    url.searchParams.set("task", id);
    // Next.js keeps useSearchParams in step with the History API, without a round trip to the server.
    if (replacing) window.history.replaceState(null, "", url);
    else {
      window.history.pushState(null, "", url);
      pushedTask.current = true;
    }
  }, []);
  const closeTask = () => {
    if (pushedTask.current) {
      pushedTask.current = false;
      window.history.back();
      return;
    }
    const url = new URL(window.location.href);
    url.searchParams.delete("task");
    window.history.replaceState(null, "", url);
  };
  const [runTaskId, setRunTaskId] = useState<string | null>(null);
  const workspace = useQuery(workspaceQuery(workspaceId));
  const readOnly = workspace.data?.role === "viewer";

  const watchExecution = useCallback((id: string, title: string) => setExecution({ id, title }), []);
  const ui = useMemo<WorkspaceUi>(
    () => ({
      workspaceId,
      questionsOpen,
      setQuestionsOpen,
      openHelp: () => setHelpOpen(true),
      watchExecution,
      openTask,
      runAgent: setRunTaskId,
      readOnly,
    }),
    [workspaceId, questionsOpen, watchExecution, openTask, readOnly],
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

  return (
    <WorkspaceContext.Provider value={ui}>
      <div className="flex h-dvh min-w-0 flex-col">
        <WorkspaceHeader
          workspaceId={workspaceId}
          username={username}
          name={workspace.data?.name}
          live={live === "live"}
          questionsOpen={questionsOpen}
          onToggleQuestions={() => setQuestionsOpen((open) => !open)}
          onHelp={() => setHelpOpen(true)}
        />
        <div className="relative flex min-h-0 flex-1">
          <div className="min-w-0 flex-1 overflow-auto">{children}</div>
          {questionsOpen ? <QuestionPanel workspaceId={workspaceId} onClose={() => setQuestionsOpen(false)} /> : null}
        </div>
      </div>
      <HelpDialog open={helpOpen} onClose={() => setHelpOpen(false)} />
      {openTaskId ? <TaskDialog workspaceId={workspaceId} taskId={openTaskId} onClose={closeTask} /> : null}
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
