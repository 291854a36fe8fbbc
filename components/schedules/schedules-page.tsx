"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useAgentProfiles } from "@/lib/client/agents";
import { schedulesQuery, useDeleteSchedule, useTriggerSchedule } from "@/lib/client/schedules";
import type { Schedule, TriggerResult } from "@/lib/client/types";
import { primaryButton, secondaryButton } from "@/components/ui/field";
import { ConfirmDelete } from "@/components/ui/confirm-delete";
import { useToast } from "@/components/ui/toast";
import { ListPage } from "@/components/ui/list-page";
import { useWorkspaceUi } from "@/components/workspace/workspace-context";
import { ScheduleDialog } from "@/components/schedules/schedule-dialog";
import { nextTimes } from "@/components/schedules/schedule-times";
import { formatDateTime } from "@/lib/client/dates";

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
  const remove = useDeleteSchedule(workspaceId);
  const agents = useAgentProfiles(workspaceId);
  const agentName = agents.data?.find((agent) => agent.id === schedule.agent_id)?.name;
  return (
    <li aria-label={schedule.name} className="rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900">
      <div className="flex flex-wrap items-start gap-x-4 gap-y-2">
        <div className="min-w-0 flex-1 basis-64">
          <div className="flex flex-wrap items-center gap-2">
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
            Next: {schedule.enabled ? formatNext(schedule) : "— (disabled)"}
            {schedule.last_triggered_at ? ` · Last triggered ${formatDateTime(schedule.last_triggered_at, schedule.timezone)}` : ""}
          </p>
          <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
            {schedule.task_id ? (
              <>
                A new run on{" "}
                <button type="button" className="underline" onClick={() => ui.openTask(schedule.task_id!)}>
                  its task
                </button>
              </>
            ) : (
              "A new task each time"
            )}{" "}
            · {agentName ?? "the workspace's default agent"}
          </p>
          {schedule.last_error ? <p className="mt-1 text-xs text-red-800 dark:text-red-300">Last time: {schedule.last_error}</p> : null}
        </div>
        <div className="flex flex-wrap gap-2">
          <button type="button" className={secondaryButton} onClick={onEdit} aria-label={`Edit ${schedule.name}`}>
            Edit
          </button>
          <ConfirmDelete
            label={`Delete schedule ${schedule.name}`}
            confirmLabel="Delete this schedule"
            pending={remove.isPending}
            onDelete={() =>
              remove.mutate(schedule.id, {
                onSuccess: () => toast(`Deleted “${schedule.name}”; its tasks and runs stay`),
                onError: (error) => toast(`“${schedule.name}” was not deleted: ${error.message}`, "error"),
              })
            }
          />
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
      </div>
      {started ? (
        <p
          role="status"
          className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md bg-blue-50 px-3 py-2 text-sm text-blue-900 dark:bg-blue-950 dark:text-blue-100"
        >
          <span data-testid="triggered-run">
            Started attempt {started.attempt_number} on #{started.task_number} “{started.task_title}”
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

function formatNext(schedule: Schedule): string {
  const next = nextTimes(schedule.cron, schedule.timezone, 1)[0];
  return next ? formatDateTime(next, schedule.timezone) : "—";
}
