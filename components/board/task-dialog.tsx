"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { projectsQuery } from "@/lib/client/projects";
import { taskQuery } from "@/lib/client/tasks";
import { Dialog } from "@/components/ui/dialog";
import { SectionState } from "@/components/ui/section-state";
import { TaskDependencies } from "@/components/board/task-dependencies";
import { TaskForm } from "@/components/board/task-form";
import { TaskQuestions } from "@/components/board/task-questions";
import { TaskRunHistory } from "@/components/board/task-run-history";
import { TaskTimeline } from "@/components/board/task-timeline";
import { draftKey } from "@/components/board/use-task-draft";
import { dangerButton, secondaryButton } from "@/components/ui/field";

/** One task in full: its form, dependencies, questions, run history, and its activity and comments as one timeline. */
export function TaskDialog({ workspaceId, taskId, onClose }: { workspaceId: string; taskId: string; onClose: () => void }) {
  const task = useQuery(taskQuery(workspaceId, taskId));
  const projects = useQuery(projectsQuery(workspaceId));
  // Unsaved changes: closing (Escape, ✕, the backdrop) asks first, and the draft is kept meanwhile.
  const [dirty, setDirty] = useState(false);
  const [asking, setAsking] = useState(false);
  const close = () => (dirty ? setAsking(true) : onClose());
  return (
    <Dialog
      open
      onClose={close}
      title={task.data ? `Task #${task.data.number}` : "Loading task…"}
      wide
      returnFocus={() => document.querySelector<HTMLElement>(`[data-task-id="${CSS.escape(taskId)}"]`)}
    >
      {asking ? (
        <div
          role="alertdialog"
          aria-label="Unsaved changes"
          className="mb-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-700 dark:bg-amber-950"
        >
          <p className="mb-2 font-medium">This task has changes you have not saved.</p>
          <div className="flex flex-wrap gap-2">
            <button type="button" className={secondaryButton} autoFocus onClick={() => setAsking(false)}>
              Keep editing
            </button>
            <button
              type="button"
              className={dangerButton}
              onClick={() => {
                forgetDraft(taskId);
                onClose();
              }}
            >
              Discard changes
            </button>
          </div>
        </div>
      ) : null}
      <SectionState query={task} what="the task" skeleton={{ rows: 2, className: "h-16" }}>
        {(data) => (
          <>
            <TaskForm workspaceId={workspaceId} task={data} projects={projects.data ?? []} onDeleted={onClose} onDirtyChange={setDirty} />
            <TaskDependencies workspaceId={workspaceId} task={data} />
            <TaskQuestions workspaceId={workspaceId} questions={data.questions} />
            <TaskRunHistory workspaceId={workspaceId} task={data} />
            <TaskTimeline workspaceId={workspaceId} taskId={taskId} />
          </>
        )}
      </SectionState>
    </Dialog>
  );
}

function forgetDraft(taskId: string) {
  try {
    localStorage.removeItem(draftKey(taskId));
  } catch {
    // Nothing stored.
  }
}
