"use client";

import { useQuery } from "@tanstack/react-query";
import { useId, useMemo, useState } from "react";
import { useAgentProfiles } from "@/lib/client/agents";
import { useSaveSchedule } from "@/lib/client/schedules";
import { taskQuery } from "@/lib/client/tasks";
import type { Schedule, ScheduleInput } from "@/lib/client/types";
import { SLUG_PATTERN } from "@/lib/schedules/schemas";
import { Dialog } from "@/components/ui/dialog";
import { DialogActions } from "@/components/ui/dialog-actions";
import { inputClass } from "@/components/ui/field";
import { TaskPicker } from "@/components/ui/task-picker";
import { useToast } from "@/components/ui/toast";
import { browserTimeZone, nextTimes, slugify } from "@/components/schedules/schedule-times";
import { formatDateTime } from "@/lib/client/dates";

type Form = Required<Omit<ScheduleInput, "slug">> & { slug: string };
type PickedTask = { id: string; number: number; title: string };

// The browser compiles `pattern` with the `v` flag, where an unescaped "-" in a class is a syntax
// error and the check is silently off; the server's own pattern, anchors dropped, is valid there.
const SLUG_INPUT_PATTERN = SLUG_PATTERN.source.replace(/^\^|\$$/g, "");

export function ScheduleDialog({
  workspaceId,
  schedule,
  onClose,
}: {
  workspaceId: string;
  schedule: Schedule | null;
  onClose: () => void;
}) {
  const toast = useToast();
  const [form, setForm] = useState<Form>({
    name: schedule?.name ?? "",
    slug: schedule?.slug ?? "",
    cron: schedule?.cron ?? "0 9 * * 1-5",
    timezone: schedule?.timezone ?? browserTimeZone(),
    enabled: schedule?.enabled ?? true,
    default_instructions: schedule?.default_instructions ?? "",
    task_id: schedule?.task_id ?? null,
    agent_id: schedule?.agent_id ?? null,
  });
  const [picked, setPicked] = useState<PickedTask | null>(null);
  const preview = useMemo(() => {
    try {
      return { times: nextTimes(form.cron, form.timezone, 3), error: "" };
    } catch (error) {
      return { times: [], error: (error as Error).message };
    }
  }, [form.cron, form.timezone]);
  const save = useSaveSchedule(workspaceId, schedule?.id ?? null);
  const set = (patch: Partial<Form>) => setForm({ ...form, ...patch });

  return (
    <Dialog open onClose={onClose} title={schedule ? `Edit ${schedule.name}` : "New schedule"} wide>
      <form
        aria-label={schedule ? "Edit schedule" : "New schedule"}
        onSubmit={(event) => {
          event.preventDefault();
          save.mutate(
            { ...form, name: form.name.trim(), slug: form.slug.trim() },
            {
              onSuccess: (saved) => {
                toast(schedule ? `Saved “${saved.name}”` : `Created “${saved.name}”`);
                onClose();
              },
            },
          );
        }}
      >
        <div className="grid gap-x-4 sm:grid-cols-2">
          <label className="mb-3 block text-sm font-medium">
            Name
            <input
              required
              value={form.name}
              onChange={(e) =>
                set({ name: e.target.value, slug: schedule || form.slug !== slugify(form.name) ? form.slug : slugify(e.target.value) })
              }
              className={inputClass}
            />
          </label>
          <label className="mb-3 block text-sm font-medium">
            Slug
            <input
              required
              pattern={SLUG_INPUT_PATTERN}
              title="Lower-case letters and digits, words joined by single dashes (nightly-report)"
              value={form.slug}
              onChange={(e) => set({ slug: e.target.value })}
              className={inputClass}
            />
          </label>
          <label className="mb-3 block text-sm font-medium">
            Cron
            <input required value={form.cron} onChange={(e) => set({ cron: e.target.value })} className={`${inputClass} font-mono`} />
          </label>
          <label className="mb-3 block text-sm font-medium">
            Time zone
            <input required value={form.timezone} onChange={(e) => set({ timezone: e.target.value })} className={inputClass} />
          </label>
        </div>
        <div className="mb-3 rounded-md bg-slate-100 px-3 py-2 text-sm dark:bg-slate-800" aria-live="polite">
          {preview.error ? (
            <span className="text-red-800 dark:text-red-300">Not a valid schedule: {preview.error}</span>
          ) : (
            <>
              <span className="font-medium">Next runs ({form.timezone}):</span>
              <ol data-testid="next-runs" className="mt-1 list-decimal pl-5">
                {preview.times.map((time) => (
                  <li key={time.toISOString()}>{formatDateTime(time, form.timezone)}</li>
                ))}
              </ol>
            </>
          )}
        </div>
        <TargetField
          workspaceId={workspaceId}
          taskId={form.task_id}
          picked={picked}
          onChange={(task) => {
            setPicked(task);
            set({ task_id: task?.id ?? null });
          }}
        />
        <AgentField workspaceId={workspaceId} value={form.agent_id} onChange={(agent_id) => set({ agent_id })} />
        <label className="mb-3 flex items-center gap-2 text-sm font-medium">
          <input type="checkbox" checked={form.enabled} onChange={(e) => set({ enabled: e.target.checked })} />
          Enabled
        </label>
        <label className="mb-3 block text-sm font-medium">
          {form.task_id ? "Instructions for each run" : "Instructions (also the new task's description)"}
          <textarea
            rows={4}
            value={form.default_instructions}
            placeholder="Blank: the task's title and description, as for a run started by hand"
            onChange={(e) => set({ default_instructions: e.target.value })}
            className={inputClass}
          />
        </label>
        <DialogActions
          error={save.error}
          pending={save.isPending}
          submitLabel={schedule ? "Save schedule" : "Create schedule"}
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}

/** Each trigger either makes a new task (titled after the schedule) or starts a new run on one task. */
function TargetField({
  workspaceId,
  taskId,
  picked,
  onChange,
}: {
  workspaceId: string;
  taskId: string | null;
  picked: PickedTask | null;
  onChange: (task: PickedTask | null) => void;
}) {
  const name = useId();
  const [existing, setExisting] = useState(taskId !== null);
  const saved = useQuery({ ...taskQuery(workspaceId, taskId ?? ""), enabled: taskId !== null && picked?.id !== taskId });
  const shown = picked ?? (saved.data ? { id: saved.data.id, number: saved.data.number, title: saved.data.title } : null);
  return (
    <fieldset className="mb-3 text-sm">
      <legend className="font-medium">Each time it fires</legend>
      <label className="mt-1 flex items-center gap-2">
        <input
          type="radio"
          name={name}
          checked={!existing}
          onChange={() => {
            setExisting(false);
            onChange(null);
          }}
        />
        Make a new task, titled after the schedule
      </label>
      <label className="mt-1 flex items-center gap-2">
        <input type="radio" name={name} checked={existing} onChange={() => setExisting(true)} />
        Start a new run on one task
      </label>
      {existing ? (
        <div className="mt-2 pl-6">
          {taskId ? (
            <p className="mb-2" data-testid="schedule-task">
              {shown ? `#${shown.number} ${shown.title}` : saved.isError ? "The task could not be read" : "Reading the task…"}
            </p>
          ) : (
            <p className="mb-2 text-slate-600 dark:text-slate-400">No task picked yet: until one is, each trigger makes a new task.</p>
          )}
          <TaskPicker
            workspaceId={workspaceId}
            label={taskId ? "Pick another task" : "Pick the task"}
            placeholder="Search task titles"
            exclude={new Set(taskId ? [taskId] : [])}
            onPick={(task) => onChange({ id: task.id, number: task.number, title: task.title })}
          />
        </div>
      ) : null}
    </fieldset>
  );
}

function AgentField({
  workspaceId,
  value,
  onChange,
}: {
  workspaceId: string;
  value: string | null;
  onChange: (id: string | null) => void;
}) {
  const agents = useAgentProfiles(workspaceId);
  return (
    <label className="mb-3 block text-sm font-medium">
      Agent
      <select value={value ?? ""} onChange={(e) => onChange(e.target.value || null)} className={inputClass} disabled={agents.isPending}>
        <option value="">The workspace&apos;s default agent</option>
        {(agents.data ?? []).map((agent) => (
          <option key={agent.id} value={agent.id}>
            {agent.name}
          </option>
        ))}
      </select>
      {agents.isError ? (
        <span className="text-red-800 dark:text-red-300">The agent profiles could not be read: {agents.error.message}</span>
      ) : null}
    </label>
  );
}
