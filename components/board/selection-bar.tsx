"use client";

import { useEffect, useState } from "react";
import { useBulkChanges, type BulkResult } from "@/lib/client/bulk-changes";
import { COLUMNS, type ColumnKey } from "@/lib/tasks/columns";
import { AssignDialog } from "@/components/board/assign-dialog";
import { useSelection } from "@/components/board/selection";
import { secondaryButton } from "@/components/ui/field";
import { useToast } from "@/components/ui/toast";

const plural = (n: number) => `${n} task${n === 1 ? "" : "s"}`;

// The bar over the board while cards are selected: how many (announced), and what to do with all
// of them at once: move, assign, delete, or clear the selection (Esc too). One toast says what
// happened, with one Undo for the whole change.
export function SelectionBar({ workspaceId }: { workspaceId: string }) {
  const { selected, clear } = useSelection();
  const bulk = useBulkChanges(workspaceId);
  const toast = useToast();
  const [assigning, setAssigning] = useState(false);
  const [busy, setBusy] = useState(false);
  const tasks = [...selected.values()];
  const count = tasks.length;

  useEffect(() => {
    if (count === 0) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape" && !event.defaultPrevented && !document.querySelector("dialog[open]")) clear();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [count, clear]);

  const report = (done: string, result: BulkResult) => {
    const refused = result.failed ? ` (${plural(result.failed)} refused)` : "";
    toast(`${done}${refused}`, result.failed ? "error" : "info", {
      label: "Undo",
      onClick: () =>
        void result
          .undo()
          .then((failures) => failures && toast(`${plural(failures)} could not be put back; reload to see where they are.`, "error")),
    });
  };
  const run = async (change: () => Promise<void>) => {
    setBusy(true);
    try {
      await change();
      clear();
    } finally {
      setBusy(false);
    }
  };
  const move = (column: ColumnKey) =>
    run(async () => report(`Moved ${plural(count)} to ${COLUMNS.find((c) => c.key === column)!.title}`, await bulk.move(tasks, column)));
  const remove = () =>
    run(async () =>
      report(
        `Deleted ${plural(count)}`,
        bulk.remove(tasks, (error) => toast(`A task was not deleted: ${error.message}`, "error")),
      ),
    );

  return (
    <div className={count ? "px-3 pb-2 sm:px-6" : "sr-only"}>
      {/* Always in the page, so the count is announced as it changes. */}
      <p role="status" className={count ? "sr-only" : undefined}>
        {count ? `${count} selected` : ""}
      </p>
      {count ? (
        <div
          role="toolbar"
          aria-label="Selected tasks"
          aria-busy={busy}
          className="flex flex-wrap items-center gap-2 rounded-lg border border-blue-300 bg-blue-50 px-3 py-2 text-sm dark:border-blue-800 dark:bg-blue-950"
        >
          <span aria-hidden="true" className="font-semibold">
            {count} selected
          </span>
          <label className="flex items-center gap-1">
            <span className="sr-only">Move selected tasks to</span>
            <select
              value=""
              disabled={busy}
              onChange={(event) => event.target.value && void move(event.target.value as ColumnKey)}
              className="min-h-11 rounded-md border border-slate-300 bg-white px-2 text-sm sm:min-h-0 sm:py-1.5 dark:border-slate-700 dark:bg-slate-900"
            >
              <option value="">Move to…</option>
              {COLUMNS.map((column) => (
                <option key={column.key} value={column.key}>
                  {column.title}
                </option>
              ))}
            </select>
          </label>
          <button type="button" className={secondaryButton} disabled={busy} onClick={() => setAssigning(true)}>
            Assign…
          </button>
          <button type="button" className={secondaryButton} disabled={busy} onClick={() => void remove()}>
            Delete
          </button>
          <button type="button" className={secondaryButton} onClick={clear}>
            Clear
          </button>
        </div>
      ) : null}
      {assigning ? (
        <AssignDialog
          workspaceId={workspaceId}
          title={`Assign ${plural(count)}`}
          initial={[]}
          onSave={(assignees) => run(async () => report(`Assigned ${plural(count)}`, await bulk.assign(tasks, assignees)))}
          onClose={() => setAssigning(false)}
        />
      ) : null}
    </div>
  );
}
