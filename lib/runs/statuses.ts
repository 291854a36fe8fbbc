// The statuses and triggers of task runs and executions, listed once. No zod here: the browser
// imports this file (like lib/tasks/columns.ts) and the schemas, the runner and SQL parameters use it.

export const RUN_STATUSES = ["queued", "running", "waiting_for_input", "succeeded", "failed", "cancelled", "timed_out"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** Each status by name, so code says `RUN_STATUS.running`, never a bare string. */
export const RUN_STATUS = byName(RUN_STATUSES);

/** Waiting for or holding a process: a task has at most one execution in these. */
export const ACTIVE_RUN_STATUSES = [RUN_STATUS.queued, RUN_STATUS.running, RUN_STATUS.waiting_for_input] as const;
/** Holding a process: the agent works, or waits for a person to answer its permission request. */
export const STARTED_RUN_STATUSES = [RUN_STATUS.running, RUN_STATUS.waiting_for_input] as const;
export type FinishedRunStatus = Exclude<RunStatus, (typeof ACTIVE_RUN_STATUSES)[number]>;
export const FINISHED_RUN_STATUSES = RUN_STATUSES.filter((status): status is FinishedRunStatus => !isActiveRunStatus(status));

export const RUN_TRIGGERS = ["manual", "schedule", "fix_conflicts", "assigned", "mentioned"] as const;
export type RunTrigger = (typeof RUN_TRIGGERS)[number];
export const RUN_TRIGGER = byName(RUN_TRIGGERS);

export function isActiveRunStatus(status: string): boolean {
  return (ACTIVE_RUN_STATUSES as readonly string[]).includes(status);
}

export function isFinishedRunStatus(status: string): boolean {
  return (FINISHED_RUN_STATUSES as readonly string[]).includes(status);
}

function byName<const T extends string>(values: readonly T[]): { readonly [K in T]: K } {
  return Object.fromEntries(values.map((value) => [value, value])) as { [K in T]: K };
}
