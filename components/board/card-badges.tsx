"use client";

import Link from "next/link";
import type { Card } from "@/lib/client/types";
import { projectTasksPath } from "@/lib/client/task-link";
import { CardOwnership } from "@/components/board/card-people";
import { useWorkspaceUi } from "@/components/workspace/workspace-context";

// The small facts under a card's title: priority, an open question or the blocked flag, unfinished
// blockers, project and phase, tags, then who it belongs to and when it is due (card-people.tsx).

export const PRIORITY_STYLE: Record<string, string> = {
  p0: "bg-red-700 text-white",
  p1: "bg-orange-600 text-white dark:bg-orange-500 dark:text-slate-950",
  p2: "bg-blue-700 text-white dark:bg-blue-400 dark:text-slate-950",
  p3: "bg-slate-600 text-white dark:bg-slate-400 dark:text-slate-950",
  p4: "bg-slate-200 text-slate-800 dark:bg-slate-700 dark:text-slate-100",
};

export function CardBadges({ task }: { task: Card }) {
  // The count, not the questions: the card carries no questions (the task dialog reads them).
  const openQuestions = task.open_question_count;
  return (
    <div className="mt-2 flex flex-wrap items-center gap-1.5 text-xs">
      <span
        className={`rounded px-1.5 py-0.5 font-semibold uppercase ${PRIORITY_STYLE[task.priority] ?? PRIORITY_STYLE.p2}`}
        title="Priority"
      >
        {task.priority}
      </span>
      {openQuestions > 0 ? (
        <span
          data-testid="question-badge"
          className="rounded bg-amber-100 px-1.5 py-0.5 font-medium text-amber-900 dark:bg-amber-900 dark:text-amber-100"
          title={`${openQuestions} open question${openQuestions === 1 ? "" : "s"} waiting for an answer`}
        >
          {openQuestions === 1 ? "Question" : "Questions"} · {openQuestions}
        </span>
      ) : task.blocked ? (
        <span
          data-testid="blocked-badge"
          className="rounded bg-amber-100 px-1.5 py-0.5 font-medium text-amber-900 dark:bg-amber-900 dark:text-amber-100"
          title="Marked blocked"
        >
          Blocked
        </span>
      ) : null}
      {task.open_blocker_count > 0 ? (
        <span
          data-testid="blocked-by-badge"
          className="rounded bg-orange-100 px-1.5 py-0.5 font-medium text-orange-900 dark:bg-orange-950 dark:text-orange-100"
          title={`Waits for ${task.open_blocker_count} unfinished task${task.open_blocker_count === 1 ? "" : "s"}`}
        >
          blocked by {task.open_blocker_count}
        </span>
      ) : null}
      {task.project_name && task.project_id ? (
        <ProjectLink projectId={task.project_id} name={task.project_name} phase={task.phase_name} />
      ) : null}
      {task.tags.map((tag) => (
        <span key={tag} className="rounded bg-slate-100 px-1.5 py-0.5 text-slate-700 dark:bg-slate-800 dark:text-slate-300">
          #{tag}
        </span>
      ))}
      <CardOwnership task={task} />
    </div>
  );
}

/** The project's name links to its tasks; a click on it neither opens the card nor starts a drag. */
function ProjectLink({ projectId, name, phase }: { projectId: string; name: string; phase: string | null }) {
  const { workspaceId } = useWorkspaceUi();
  const stop = (event: React.SyntheticEvent) => event.stopPropagation();
  return (
    <span className="truncate text-slate-700 dark:text-slate-300" title="Project and phase (the project links to its tasks)">
      <Link
        href={projectTasksPath(workspaceId, projectId)}
        onClick={stop}
        onPointerDown={stop}
        onKeyDown={stop}
        className="underline decoration-slate-400 underline-offset-2 hover:text-blue-800 dark:hover:text-blue-300"
      >
        {name}
      </Link>
      {phase ? ` · ${phase}` : ""}
    </span>
  );
}
