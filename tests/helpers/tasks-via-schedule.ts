import { call, uniqueName } from "./api";

// The tasks API lives in another branch; triggering a schedule that has no task creates a real task
// (titled after the schedule, in todo), which is all these tests need.
export async function createTaskViaSchedule(token: string, workspaceId: string, title = uniqueName("task")) {
  const schedule = await call("POST", `/api/workspaces/${workspaceId}/schedules`, {
    token,
    json: { name: title, cron: "0 0 1 1 *" },
  });
  if (schedule.status !== 201) throw new Error(`create schedule: ${schedule.status} ${JSON.stringify(schedule.body)}`);
  const triggered = await call("POST", `/api/workspaces/${workspaceId}/schedules/${schedule.body.id}/trigger`, { token });
  if (triggered.status !== 202) throw new Error(`trigger: ${triggered.status} ${JSON.stringify(triggered.body)}`);
  return { id: triggered.body.task_id as string, title, scheduleId: schedule.body.id as string };
}

/** The one validation entry of a 422 body, for exact loc/type assertions. */
export function onlyError(body: { detail: { loc: unknown[]; type: string }[] }) {
  if (!Array.isArray(body?.detail) || body.detail.length !== 1) throw new Error(`expected one error: ${JSON.stringify(body)}`);
  return { loc: body.detail[0].loc, type: body.detail[0].type };
}
