"use client";

import { useState, type FormEvent } from "react";
import type { Assignee } from "@/lib/client/assignees";
import { AssigneePicker } from "@/components/board/assignee-picker";
import { Dialog } from "@/components/ui/dialog";
import { DialogActions } from "@/components/ui/dialog-actions";

// "Assign…" from a card's ⋯ menu or the selection bar: the task dialog's picker on its own. Ticking
// an agent on a task in To do or In progress starts its run (docs/board-automation.md).
export function AssignDialog({
  workspaceId,
  title,
  initial,
  onSave,
  onClose,
  returnFocus,
}: {
  workspaceId: string;
  title: string;
  initial: Assignee[];
  /** Saves the list; the dialog closes when it resolves and shows the error when it rejects. */
  onSave: (assignees: Assignee[]) => Promise<void>;
  onClose: () => void;
  returnFocus?: () => HTMLElement | null;
}) {
  const [value, setValue] = useState<Assignee[]>(initial);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    try {
      await onSave(value);
      onClose();
    } catch (failure) {
      setError(failure as Error);
    } finally {
      setPending(false);
    }
  };
  return (
    <Dialog open onClose={onClose} title={title} returnFocus={returnFocus}>
      <form onSubmit={submit} className="grid grid-cols-2">
        <AssigneePicker workspaceId={workspaceId} value={value} onChange={setValue} />
        <div className="col-span-2">
          <DialogActions error={error} pending={pending} submitLabel="Save" onCancel={onClose} />
        </div>
      </form>
    </Dialog>
  );
}
