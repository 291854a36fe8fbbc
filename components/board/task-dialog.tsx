"use client";

import { useQuery } from "@tanstack/react-query";
import { projectsQuery } from "@/lib/client/projects";
import { taskQuery } from "@/lib/client/tasks";
import { Dialog } from "@/components/ui/dialog";
import { SectionState } from "@/components/ui/section-state";
import { TaskActivity } from "@/components/board/task-activity";
import { TaskDependencies } from "@/components/board/task-dependencies";
import { TaskForm } from "@/components/board/task-form";
import { TaskQuestions } from "@/components/board/task-questions";
import { TaskRunHistory } from "@/components/board/task-run-history";

/** One task in full: its form, dependencies, questions, run history and activity. */
export function TaskDialog({ workspaceId, taskId, onClose }: { workspaceId: string; taskId: string; onClose: () => void }) {
  const task = useQuery(taskQuery(workspaceId, taskId));
  const projects = useQuery(projectsQuery(workspaceId));
  return (
    <Dialog open onClose={onClose} title={task.data ? `Task #${task.data.number}` : "Loading task…"} wide>
      <SectionState query={task} what="the task" skeleton={{ rows: 2, className: "h-16" }}>
        {(data) => (
          <>
            <TaskForm workspaceId={workspaceId} task={data} projects={projects.data ?? []} onDeleted={onClose} />
            <TaskDependencies workspaceId={workspaceId} task={data} />
            <TaskQuestions workspaceId={workspaceId} questions={data.questions} />
            <TaskRunHistory workspaceId={workspaceId} task={data} />
            <TaskActivity workspaceId={workspaceId} taskId={taskId} />
          </>
        )}
      </SectionState>
    </Dialog>
  );
}
