"use client";

import { type FormEvent, forwardRef, useState } from "react";
import { useCreateTask } from "@/lib/client/tasks";
import type { ColumnKey, Priority } from "@/lib/tasks/columns";
import { useToast } from "@/components/ui/toast";

export interface QuickAddFilter {
  projectId: string | null;
  tag: string | null;
  priority: Priority | null;
  /** The search text, lower-cased. */
  search: string;
  assigneeId: string | null;
  assigneeKind: "user" | "agent" | null;
}

// A task added while the board is filtered gets the filter's project, tag, priority and person, so it stays in
// view; what the board cannot give it (a search it does not match, an agent: assigning one starts
// a run, so it is done in the task itself) is said in words, never a card that silently vanishes.
export const QuickAdd = forwardRef<HTMLInputElement, { workspaceId: string; column: ColumnKey; title: string; filter: QuickAddFilter }>(
  function QuickAdd({ workspaceId, column, title, filter }, ref) {
    const toast = useToast();
    const [text, setText] = useState("");
    const create = useCreateTask(workspaceId);
    // The field stays editable while a task saves: disabling it dropped the focus, so the `n` shortcut
    // and the next title typed went nowhere until the server answered.
    const submit = async (event: FormEvent) => {
      event.preventDefault();
      const saving = text.trim();
      if (!saving) return;
      setText("");
      try {
        const { task, shown } = await create.mutateAsync({
          title: saving,
          status: column,
          ...(filter.projectId ? { project_id: filter.projectId } : {}),
          ...(filter.tag ? { tags: [filter.tag] } : {}),
          ...(filter.priority ? { priority: filter.priority } : {}),
          ...(filter.assigneeId && filter.assigneeKind === "user" ? { assignees: [{ kind: "user" as const, id: filter.assigneeId }] } : {}),
        });
        const hiddenBy =
          filter.search && !task.title.toLowerCase().includes(filter.search)
            ? `the search “${filter.search}”`
            : filter.assigneeKind === "agent"
              ? "the assignee filter (assign an agent in the task itself: that starts its run)"
              : null;
        if (hiddenBy) toast(`Added “${task.title}” to ${title}; it is hidden by ${hiddenBy}`);
        // Filtered, the column is read again from the server (it shows the new task where it sorts).
        else if (!shown && !Object.values(filter).some(Boolean)) toast(`Added “${task.title}” at the end of ${title}`);
      } catch (error) {
        setText((current) => current || saving);
        toast(`“${saving}” was not added: ${(error as Error).message}`, "error");
      }
    };
    return (
      <form className="px-3 pb-2" onSubmit={submit} aria-busy={create.isPending}>
        <input
          ref={ref}
          value={text}
          onChange={(event) => setText(event.target.value)}
          aria-label={`Add a task to ${title}`}
          placeholder="+ Add a task"
          maxLength={500}
          className="w-full rounded-md border border-transparent bg-white/70 px-2 py-1.5 text-sm placeholder:text-slate-600 hover:border-slate-300 focus:border-blue-600 focus:bg-white dark:bg-slate-900/70 dark:placeholder:text-slate-400 dark:focus:bg-slate-900"
        />
      </form>
    );
  },
);
