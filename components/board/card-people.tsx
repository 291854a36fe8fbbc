"use client";

import { useState } from "react";
import type { Card } from "@/lib/client/types";
import { Avatar } from "@/components/ui/avatar";

// What a card says about who has the task and when it is due.

const SHOWN = 3;

/** The assignees as small avatars, at most three and "+N" for the rest. */
export function CardAssignees({ assignees }: { assignees: Card["assignees"] }) {
  if (assignees.length === 0) return null;
  const rest = assignees.length - SHOWN;
  return (
    <span className="ml-auto flex items-center -space-x-1" data-testid="card-assignees">
      {assignees.slice(0, SHOWN).map((a) => (
        <span key={`${a.kind}:${a.id}`} className="rounded-full ring-2 ring-white dark:ring-slate-900">
          <Avatar id={a.id} name={a.name} kind={a.kind} />
        </span>
      ))}
      {rest > 0 ? (
        <span
          className="inline-flex h-6 min-w-6 items-center justify-center rounded-full bg-slate-200 px-1 text-[10px] font-semibold text-slate-800 ring-2 ring-white dark:bg-slate-700 dark:text-slate-100 dark:ring-slate-900"
          title={assignees
            .slice(SHOWN)
            .map((a) => a.name)
            .join(", ")}
          aria-label={`and ${rest} more`}
          role="img"
        >
          +{rest}
        </span>
      ) : null}
    </span>
  );
}

/** "Due 3 Nov", or in red "Overdue · 3 Nov" once the moment has passed (a done task is never overdue). */
export function DueLabel({ dueAt, done }: { dueAt: string | null; done: boolean }) {
  // When the card was drawn: a card becomes overdue on its next render (any change, or a reload).
  const [now] = useState(() => Date.now());
  if (!dueAt) return null;
  const due = new Date(dueAt);
  // Day before month ("3 Nov"), whatever the browser's locale orders them as: one way of writing it.
  const year = due.getFullYear() !== new Date(now).getFullYear() ? ` ${due.getFullYear()}` : "";
  const day = `${due.getDate()} ${due.toLocaleDateString(undefined, { month: "short" })}${year}`;
  const overdue = !done && due.getTime() < now;
  return (
    <span
      data-testid="due-label"
      data-overdue={overdue || undefined}
      title={`Due ${due.toLocaleString()}`}
      className={
        overdue
          ? "rounded bg-red-100 px-1.5 py-0.5 font-medium text-red-900 dark:bg-red-950 dark:text-red-200"
          : "rounded bg-slate-100 px-1.5 py-0.5 text-slate-700 dark:bg-slate-800 dark:text-slate-300"
      }
    >
      {overdue ? `Overdue · ${day}` : `Due ${day}`}
    </span>
  );
}

/** The due date and the assignees, at the end of the card's badge row. */
export function CardOwnership({ task }: { task: Card }) {
  return (
    <>
      <DueLabel dueAt={task.due_at} done={task.status === "done"} />
      <CardAssignees assignees={task.assignees} />
    </>
  );
}
