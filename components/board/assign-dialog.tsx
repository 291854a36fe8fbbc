"use client";

import { useState, type FormEvent } from "react";
import type { Assignee } from "@/lib/client/assignees";
import { useUpdateTask } from "@/lib/client/tasks";
import type { Card } from "@/lib/client/types";
import { AssigneePicker } from "@/components/board/assignee-picker";
import { Dialog } from "@/components/ui/dialog";
import { DialogActions } from "@/components/ui/dialog-actions";
import { useToast } from "@/components/ui/toast";

// "Assign…" from a card's ⋯ menu: the task dialog's picker on its own, saved as one PATCH of the
// task's assignees. Ticking an agent on a task in To do or In progress starts its run.
export function AssignDialog({
  workspaceId,
  task,
  onClose,
  returnFocus,
}: {
  workspaceId: string;
  task: Card;
  onClose: () => void;
  returnFocus: () => HTMLElement | null;
}) {
  const [value, setValue] = useState<Assignee[]>(task.assignees);
  const update = useUpdateTask(workspaceId, task.id);
  const toast = useToast();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // With their names: the card shows them until the server answers (the API ignores the names).
    update.mutate(
      { assignees: value },
      {
        onSuccess: () => {
          toast(value.length ? `Assigned “${task.title}” to ${value.map((a) => a.name).join(", ")}` : `Unassigned “${task.title}”`);
          onClose();
        },
      },
    );
  };
  return (
    <Dialog open onClose={onClose} title={`Assign “${task.title}”`} returnFocus={returnFocus}>
      <form onSubmit={submit} className="grid grid-cols-2">
        <AssigneePicker workspaceId={workspaceId} value={value} onChange={setValue} />
        <div className="col-span-2">
          <DialogActions error={update.error} pending={update.isPending} submitLabel="Save" onCancel={onClose} />
        </div>
      </form>
    </Dialog>
  );
}
