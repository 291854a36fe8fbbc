"use client";

import type { Project, Task, UpdateTaskInput } from "@/lib/client/types";
import { useUpdateTask } from "@/lib/client/tasks";
import { useUndoableDelete } from "@/lib/client/undoable-delete";
import type { Priority } from "@/lib/tasks/columns";
import { PrioritySelect } from "@/components/ui/priority-select";
import { ErrorText, inputClass, primaryButton, secondaryButton } from "@/components/ui/field";
import { useToast } from "@/components/ui/toast";
import { FixConflictsButton } from "@/components/executions/fix-conflicts-button";
import { OpenPullRequestButton } from "@/components/github/open-pull-request-button";
import { useWorkspaceUi } from "@/components/workspace/workspace-context";
import { AssigneePicker } from "@/components/board/assignee-picker";
import { dateInputValue, dueAtFromDate } from "@/lib/client/due-date";
import { useTaskDraft } from "@/components/board/use-task-draft";
import { CopyButton } from "@/components/ui/copy-button";
import { taskLink } from "@/lib/client/task-link";

interface Draft {
  title: string;
  description: string;
  priority: Priority;
  tags: string;
  project_id: string;
  phase: string;
  pr_url: string;
  assignees: Task["assignees"];
  /** The input's local date, YYYY-MM-DD, or "" for none. */
  due: string;
}

/** The task's fields, saved together, and the task's actions (run an agent, open a pull request, delete). */
export function TaskForm({
  workspaceId,
  task,
  projects,
  onDeleted,
  onDirtyChange,
}: {
  workspaceId: string;
  task: Task;
  projects: Project[];
  onDeleted: () => void;
  /** Whether there are unsaved changes, for closing the dialog only after asking. */
  onDirtyChange?: (dirty: boolean) => void;
}) {
  const toast = useToast();
  const ui = useWorkspaceUi();
  // The form edits a copy of the task; until the person types, the copy is the loaded task itself.
  const { draft, setDraft, restored, forget } = useTaskDraft<Draft>(task.id, toDraft(task), onDirtyChange);
  const save = useUpdateTask(workspaceId, task.id);
  const project = projects.find((p) => p.id === draft.project_id);
  return (
    <form
      aria-label="Edit task"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate(fromDraft(draft), {
          onSuccess: () => {
            forget();
            toast("Saved");
          },
        });
      }}
      className="grid grid-cols-2 gap-x-4"
    >
      <fieldset disabled={ui.readOnly} className="col-span-2 grid grid-cols-2 gap-x-4">
        {restored ? (
          <p
            role="status"
            className="col-span-2 mb-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100"
          >
            Your unsaved changes from before are back.{" "}
            <button type="button" className="underline" onClick={forget}>
              Discard them
            </button>
          </p>
        ) : null}
        <label className="col-span-2 mb-3 block text-sm font-medium">
          Title
          <input
            required
            maxLength={500}
            value={draft.title}
            onChange={(e) => setDraft({ ...draft, title: e.target.value })}
            className={inputClass}
          />
        </label>
        <label className="col-span-2 mb-3 block text-sm font-medium">
          Description
          <textarea
            rows={4}
            value={draft.description}
            onChange={(e) => setDraft({ ...draft, description: e.target.value })}
            className={inputClass}
          />
        </label>
        <PrioritySelect value={draft.priority} onChange={(priority) => setDraft({ ...draft, priority })} className={inputClass} />
        <label className="mb-3 block text-sm font-medium">
          Tags (comma-separated)
          <input value={draft.tags} onChange={(e) => setDraft({ ...draft, tags: e.target.value })} className={inputClass} />
        </label>
        <label className="mb-3 block text-sm font-medium">
          Project
          <select
            value={draft.project_id}
            onChange={(e) => setDraft({ ...draft, project_id: e.target.value, phase: "" })}
            className={inputClass}
          >
            <option value="">No project</option>
            {projects.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </label>
        <label className="mb-3 block text-sm font-medium">
          Phase
          <select
            value={draft.phase}
            disabled={!project?.phases?.length}
            onChange={(e) => setDraft({ ...draft, phase: e.target.value })}
            className={inputClass}
          >
            <option value="">No phase</option>
            {(project?.phases ?? []).map((name, index) => (
              <option key={index} value={String(index + 1)}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label className="mb-3 block text-sm font-medium">
          Due date
          <input type="date" value={draft.due} onChange={(e) => setDraft({ ...draft, due: e.target.value })} className={inputClass} />
        </label>
        <div className="mb-3 self-end pb-2 text-xs text-slate-600 dark:text-slate-400">
          {draft.due ? "Due at the end of that day, your time." : "No due date."}
        </div>
        <AssigneePicker workspaceId={workspaceId} value={draft.assignees} onChange={(assignees) => setDraft({ ...draft, assignees })} />
        <label className="col-span-2 mb-3 block text-sm font-medium">
          Pull request URL
          <input
            type="url"
            value={draft.pr_url}
            onChange={(e) => setDraft({ ...draft, pr_url: e.target.value })}
            placeholder="https://github.com/…/pull/1"
            className={inputClass}
          />
        </label>
      </fieldset>
      <div className="col-span-2">
        <ErrorText>{save.error ? `Not saved: ${save.error.message}` : ""}</ErrorText>
      </div>
      <TaskActions workspaceId={workspaceId} task={task} saving={save.isPending} onDeleted={onDeleted} />
    </form>
  );
}

function toDraft(task: Task): Draft {
  return {
    title: task.title,
    description: task.description,
    priority: task.priority,
    tags: task.tags.join(", "),
    project_id: task.project_id ?? "",
    phase: task.phase != null ? String(task.phase) : "",
    pr_url: task.pr_url ?? "",
    assignees: task.assignees,
    due: dateInputValue(task.due_at),
  };
}

function fromDraft(draft: Draft): UpdateTaskInput {
  return {
    title: draft.title.trim(),
    description: draft.description,
    priority: draft.priority,
    tags: draft.tags
      .split(",")
      .map((tag) => tag.trim())
      .filter(Boolean),
    project_id: draft.project_id || null,
    phase: draft.phase === "" ? null : Number(draft.phase),
    pr_url: draft.pr_url.trim() || null,
    // With their names: the optimistic card shows them at once (the server takes kind and id only).
    assignees: draft.assignees,
    due_at: dueAtFromDate(draft.due),
  };
}

/** Save, the task's actions, and deleting it after asking. Sits inside the form, so Save submits it. */
function TaskActions({
  workspaceId,
  task,
  saving,
  onDeleted,
}: {
  workspaceId: string;
  task: Task;
  saving: boolean;
  onDeleted: () => void;
}) {
  const toast = useToast();
  const ui = useWorkspaceUi();
  const remove = useUndoableDelete(workspaceId);
  const link = <CopyButton value={taskLink(workspaceId, task.id)} what="the address in the address bar" label="Copy link" />;
  if (ui.readOnly) return <div className="col-span-2 flex flex-wrap items-center gap-2">{link}</div>;
  return (
    <div className="col-span-2 flex flex-wrap items-center gap-2">
      <button type="submit" className={primaryButton} disabled={saving}>
        {saving ? "Saving…" : "Save"}
      </button>
      <button type="button" className={secondaryButton} onClick={() => ui.runAgent(task.id)}>
        Run agent…
      </button>
      {link}
      {task.has_merge_conflict ? <FixConflictsButton task={task} /> : null}
      <OpenPullRequestButton workspaceId={workspaceId} task={task} />
      <span className="ml-auto" />
      <button
        type="button"
        className={secondaryButton}
        onClick={() => {
          // Undoable for 10 s instead of asking first (lib/client/undoable-delete.ts).
          const undo = remove(task, (error) => toast(`“${task.title}” was not deleted: ${error.message}`, "error"));
          onDeleted();
          toast(`Deleted “${task.title}”`, "info", { label: "Undo", onClick: () => void undo() });
        }}
      >
        Delete
      </button>
    </div>
  );
}
