"use client";

import { useId, useRef, useState } from "react";
import type { Card } from "@/lib/client/types";
import { COLUMNS, type ColumnKey } from "@/lib/tasks/columns";
import { useMoveToColumn } from "@/lib/client/task-moves";
import { useUndoableDelete } from "@/lib/client/undoable-delete";
import { useUpdateTask } from "@/lib/client/tasks";
import { taskLink } from "@/lib/client/task-link";
import { useToast } from "@/components/ui/toast";
import { useWorkspaceUi } from "@/components/workspace/workspace-context";
import { AssignDialog } from "@/components/board/assign-dialog";

const menuItem = "block w-full px-3 py-1.5 max-sm:py-3 text-left hover:bg-slate-100 dark:hover:bg-slate-800";

// A card's ⋯ menu: open it, run an agent, assign it, copy its link, move it to another column, delete it. A
// move and a delete can be undone for 10 s from the toast that says they happened.
export function CardMenu({ task, onOpen }: { task: Card; onOpen: (taskId: string) => void }) {
  const ui = useWorkspaceUi();
  const toast = useToast();
  const moveTo = useMoveToColumn(ui.workspaceId);
  const remove = useUndoableDelete(ui.workspaceId);
  const update = useUpdateTask(ui.workspaceId, task.id);
  const [open, setOpen] = useState(false);
  const [assigning, setAssigning] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const stop = (event: React.SyntheticEvent) => event.stopPropagation();
  const choose = (action: () => void) => (event: React.MouseEvent) => {
    event.stopPropagation();
    setOpen(false);
    action();
  };
  const failed = (what: string) => (error: Error) => toast(`“${task.title}” was not ${what}: ${error.message}`, "error");
  const move = (column: ColumnKey, title: string) => {
    const undo = moveTo(task, column, failed("moved"));
    toast(`Moved “${task.title}” to ${title}`, "info", { label: "Undo", onClick: undo });
  };
  const del = () => {
    const undo = remove(task, failed("deleted"));
    toast(`Deleted “${task.title}”`, "info", { label: "Undo", onClick: () => void undo() });
  };
  const copy = () =>
    navigator.clipboard
      .writeText(taskLink(ui.workspaceId, task.id))
      .then(() => toast("Link copied"))
      .catch(() => toast("Copying was refused by the browser; open the task and copy the address bar.", "error"));
  return (
    <div
      className="absolute top-2 right-2"
      onPointerDown={stop}
      onClick={stop}
      onKeyDown={(event) => {
        event.stopPropagation();
        if (event.key === "Escape") setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        aria-label={`Actions for ${task.title}`}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((value) => !value)}
        className="rounded px-1.5 text-slate-600 hover:bg-slate-100 max-sm:min-h-11 max-sm:min-w-11 dark:text-slate-300 dark:hover:bg-slate-800"
      >
        ⋯
      </button>
      {open ? (
        <ul
          id={menuId}
          role="menu"
          aria-label={`Actions for ${task.title}`}
          className="absolute right-0 z-20 mt-1 w-44 rounded-md border border-slate-200 bg-white py-1 text-sm shadow-lg dark:border-slate-700 dark:bg-slate-900"
        >
          <Item autoFocus onClick={choose(() => onOpen(task.id))}>
            Open
          </Item>
          <Item onClick={choose(copy)}>Copy link</Item>
          {ui.readOnly ? null : (
            <>
              <Item onClick={choose(() => ui.runAgent(task.id))}>Run agent…</Item>
              <Item onClick={choose(() => setAssigning(true))}>Assign…</Item>
              {COLUMNS.filter((column) => column.key !== task.status).map((column) => (
                <Item key={column.key} onClick={choose(() => move(column.key, column.title))}>
                  Move to {column.title}
                </Item>
              ))}
              <Item onClick={choose(del)}>Delete</Item>
            </>
          )}
        </ul>
      ) : null}
      {assigning ? (
        <AssignDialog
          workspaceId={ui.workspaceId}
          title={`Assign “${task.title}”`}
          initial={task.assignees}
          // With their names: the card shows them until the server answers (the API ignores the names).
          onSave={async (assignees) => {
            await update.mutateAsync({ assignees });
            toast(
              assignees.length ? `Assigned “${task.title}” to ${assignees.map((a) => a.name).join(", ")}` : `Unassigned “${task.title}”`,
            );
          }}
          onClose={() => setAssigning(false)}
          returnFocus={() => button.current}
        />
      ) : null}
    </div>
  );
}

function Item({
  children,
  onClick,
  autoFocus,
}: {
  children: React.ReactNode;
  onClick: (event: React.MouseEvent) => void;
  autoFocus?: boolean;
}) {
  return (
    <li role="none">
      <button type="button" role="menuitem" autoFocus={autoFocus} className={menuItem} onClick={onClick}>
        {children}
      </button>
    </li>
  );
}
