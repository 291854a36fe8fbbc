"use client";

import { useQuery } from "@tanstack/react-query";
import { Cron } from "croner";
import { useMemo, useState } from "react";
import { schedulesQuery, useSaveSchedule, useTriggerSchedule } from "@/lib/client/schedules";
import type { Schedule, TriggerResult } from "@/lib/client/types";
import { Dialog } from "@/components/ui/dialog";
import { ErrorText, inputClass, primaryButton, secondaryButton } from "@/components/ui/field";
import { useToast } from "@/components/ui/toast";
import { ListPage } from "@/components/ui/list-page";
import { useWorkspaceUi } from "@/components/workspace/workspace-context";

type ScheduleForm = Pick<Schedule, "name" | "slug" | "cron" | "timezone" | "enabled" | "default_instructions">;

export function SchedulesPage({ workspaceId }: { workspaceId: string }) {
  const schedules = useQuery(schedulesQuery(workspaceId));
  const [editing, setEditing] = useState<Schedule | "new" | null>(null);

  return (
    <ListPage
      title="Schedules"
      noun="schedules"
      newLabel="New schedule"
      onNew={() => setEditing("new")}
      query={schedules}
      skeleton={{ rows: 2, className: "h-16" }}
      empty="No schedules yet. A schedule starts an agent run on a cron timetable; create one with “New schedule”."
      dialog={
        editing ? (
          <ScheduleDialog workspaceId={workspaceId} schedule={editing === "new" ? null : editing} onClose={() => setEditing(null)} />
        ) : null
      }
    >
      {(items) => (
        <ul className="space-y-3">
          {items.map((schedule) => (
            <ScheduleRow key={schedule.id} workspaceId={workspaceId} schedule={schedule} onEdit={() => setEditing(schedule)} />
          ))}
        </ul>
      )}
    </ListPage>
  );
}

function ScheduleRow({ workspaceId, schedule, onEdit }: { workspaceId: string; schedule: Schedule; onEdit: () => void }) {
  const ui = useWorkspaceUi();
  const toast = useToast();
  const [started, setStarted] = useState<TriggerResult | null>(null);
  const trigger = useTriggerSchedule(workspaceId, schedule.id);
  return (
    <li aria-label={schedule.name} className="rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
      <div className="flex items-start gap-4">
        <div className="min-w-0 flex-1">
          <div className="flex items-center gap-2">
            <h2 className="font-medium">{schedule.name}</h2>
            <code className="text-xs text-slate-600 dark:text-slate-400">{schedule.slug}</code>
            <span
              className={`rounded px-1.5 py-0.5 text-xs ${schedule.enabled ? "bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-200" : "bg-slate-200 text-slate-700 dark:bg-slate-800 dark:text-slate-300"}`}
            >
              {schedule.enabled ? "Enabled" : "Disabled"}
            </span>
          </div>
          <p className="mt-1 text-sm">
            <code>{schedule.cron}</code> <span className="text-slate-600 dark:text-slate-400">({schedule.timezone})</span>
          </p>
          <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
            Next: {schedule.enabled ? formatIn(nextTimes(schedule.cron, schedule.timezone, 1)[0], schedule.timezone) : "— (disabled)"}
            {schedule.last_triggered_at ? ` · Last triggered ${formatIn(new Date(schedule.last_triggered_at), schedule.timezone)}` : ""}
          </p>
        </div>
        <button type="button" className={secondaryButton} onClick={onEdit} aria-label={`Edit ${schedule.name}`}>
          Edit
        </button>
        <button
          type="button"
          className={primaryButton}
          onClick={() =>
            trigger.mutate(undefined, {
              onSuccess: setStarted,
              onError: (error) => toast(`“${schedule.name}” was not triggered: ${error.message}`, "error"),
            })
          }
          disabled={trigger.isPending}
        >
          {trigger.isPending ? "Starting…" : "Trigger now"}
        </button>
      </div>
      {started ? (
        <p
          role="status"
          className="mt-3 flex items-center gap-3 rounded-md bg-blue-50 px-3 py-2 text-sm text-blue-900 dark:bg-blue-950 dark:text-blue-100"
        >
          <span data-testid="triggered-run">
            Started run <code>{started.task_run_id}</code>
          </span>
          <button type="button" className="underline" onClick={() => ui.watchExecution(started.execution_id, `Run of ${schedule.name}`)}>
            Watch progress
          </button>
          <button type="button" className="underline" onClick={() => ui.openTask(started.task_id)}>
            Open task
          </button>
        </p>
      ) : null}
    </li>
  );
}

function ScheduleDialog({ workspaceId, schedule, onClose }: { workspaceId: string; schedule: Schedule | null; onClose: () => void }) {
  const toast = useToast();
  const [form, setForm] = useState<ScheduleForm>({
    name: schedule?.name ?? "",
    slug: schedule?.slug ?? "",
    cron: schedule?.cron ?? "0 9 * * 1-5",
    timezone: schedule?.timezone ?? (Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC"),
    enabled: schedule?.enabled ?? true,
    default_instructions: schedule?.default_instructions ?? "",
  });
  const preview = useMemo(() => {
    try {
      return { times: nextTimes(form.cron, form.timezone, 3), error: "" };
    } catch (error) {
      return { times: [], error: (error as Error).message };
    }
  }, [form.cron, form.timezone]);
  const save = useSaveSchedule(workspaceId, schedule?.id ?? null);
  return (
    <Dialog open onClose={onClose} title={schedule ? `Edit ${schedule.name}` : "New schedule"}>
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
        <div className="grid grid-cols-2 gap-4">
          <label className="mb-3 block text-sm font-medium">
            Name
            <input
              required
              value={form.name}
              onChange={(e) =>
                setForm({
                  ...form,
                  name: e.target.value,
                  slug: schedule || form.slug !== slugify(form.name) ? form.slug : slugify(e.target.value),
                })
              }
              className={inputClass}
            />
          </label>
          <label className="mb-3 block text-sm font-medium">
            Slug
            <input
              required
              pattern="[a-z0-9][a-z0-9-]*"
              value={form.slug}
              onChange={(e) => setForm({ ...form, slug: e.target.value })}
              className={inputClass}
            />
          </label>
          <label className="mb-3 block text-sm font-medium">
            Cron
            <input
              required
              value={form.cron}
              onChange={(e) => setForm({ ...form, cron: e.target.value })}
              className={`${inputClass} font-mono`}
            />
          </label>
          <label className="mb-3 block text-sm font-medium">
            Time zone
            <input required value={form.timezone} onChange={(e) => setForm({ ...form, timezone: e.target.value })} className={inputClass} />
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
                  <li key={time.toISOString()}>{formatIn(time, form.timezone)}</li>
                ))}
              </ol>
            </>
          )}
        </div>
        <label className="mb-3 flex items-center gap-2 text-sm font-medium">
          <input type="checkbox" checked={form.enabled} onChange={(e) => setForm({ ...form, enabled: e.target.checked })} />
          Enabled
        </label>
        <label className="mb-3 block text-sm font-medium">
          Default instructions
          <textarea
            rows={4}
            value={form.default_instructions}
            onChange={(e) => setForm({ ...form, default_instructions: e.target.value })}
            className={inputClass}
          />
        </label>
        <ErrorText>{save.error ? `Not saved: ${save.error.message}` : ""}</ErrorText>
        <div className="flex justify-end gap-2">
          <button type="button" className={secondaryButton} onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className={primaryButton} disabled={save.isPending}>
            {save.isPending ? "Saving…" : schedule ? "Save schedule" : "Create schedule"}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function nextTimes(cron: string, timezone: string, count: number): Date[] {
  return new Cron(cron, { timezone, paused: true }).nextRuns(count);
}

function formatIn(date: Date | undefined, timezone: string): string {
  if (!date) return "—";
  try {
    return new Intl.DateTimeFormat("en-GB", { timeZone: timezone, dateStyle: "medium", timeStyle: "short" }).format(date);
  } catch {
    return date.toISOString();
  }
}

function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
}
