import crypto from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { call, newUser, newWorkspace } from "../helpers/api";
import { createTask, onPostgres, sql } from "../helpers/tasks";

// The board's questions and runs of a task come from task_board_extras, a row per task kept by
// triggers on questions and task_runs (migration task_board_extras). These tests change questions
// and runs every way the app and a database client can, and check that the board follows.

let token: string;
let ws: string;

beforeAll(async () => {
  token = (await newUser()).token;
  ws = (await newWorkspace(token)).id;
});

async function boardItem(taskId: string) {
  const response = await call("GET", `/api/workspaces/${ws}/tasks/${taskId}`, { token });
  expect(response.status).toBe(200);
  const column = await call("GET", `/api/workspaces/${ws}/board/column/${response.body.status}?limit=100`, { token });
  // The single-task read and the column page come from the same SQL; both must agree.
  expect(column.body.items.find((item: { id: string }) => item.id === taskId)).toEqual(response.body);
  return response.body;
}

async function ask(taskId: string, content: string) {
  const response = await call("POST", `/api/workspaces/${ws}/questions`, { token, json: { task_id: taskId, content } });
  expect(response.status).toBe(201);
  return response.body;
}

describe("a task's open questions on the board", () => {
  it("follow asking, answering and deleting, oldest first", async () => {
    const task = await createTask(token, ws, { title: "asks" });
    expect(await boardItem(task.id)).toMatchObject({ questions: [], blocked: false });

    const first = await ask(task.id, "First?");
    const second = await ask(task.id, "Second?");
    expect((await boardItem(task.id)).questions).toEqual([first, second]);
    expect((await boardItem(task.id)).blocked).toBe(true);

    const answered = await call("POST", `/api/workspaces/${ws}/questions/${first.id}/answer`, { token, json: { answer: "yes" } });
    expect(answered.status).toBe(200);
    expect((await boardItem(task.id)).questions).toEqual([second]);

    expect((await call("DELETE", `/api/workspaces/${ws}/questions/${second.id}`, { token })).status).toBe(204);
    expect(await boardItem(task.id)).toMatchObject({ questions: [], blocked: false });
  });

  it("carry the task's current title after a rename, and keep a content that looks like the stored JSON", async () => {
    const task = await createTask(token, ws, { title: "old name" });
    const tricky = 'he wrote "task_title" : null, and {"task_title" : null}';
    const question = await ask(task.id, tricky);
    expect(question.task_title).toBe("old name");

    const renamed = await call("PATCH", `/api/workspaces/${ws}/tasks/${task.id}`, { token, json: { title: 'new "quoted" name' } });
    expect(renamed.status).toBe(200);
    const [onBoard] = (await boardItem(task.id)).questions;
    expect(onBoard).toMatchObject({ id: question.id, content: tricky, task_title: 'new "quoted" name' });
    const listed = await call("GET", `/api/workspaces/${ws}/questions?task_id=${task.id}`, { token });
    expect(onBoard).toEqual(listed.body[0]);
  });

  it("go with a deleted task, and come back for nothing", async () => {
    const task = await createTask(token, ws, { title: "deleted" });
    await ask(task.id, "Still there?");
    expect((await call("DELETE", `/api/workspaces/${ws}/tasks/${task.id}`, { token })).status).toBe(204);
    expect((await call("GET", `/api/workspaces/${ws}/tasks/${task.id}`, { token })).status).toBe(404);
    if (onPostgres()) {
      expect(await sql("SELECT 1 FROM task_board_extras WHERE task_id = $1", [task.id])).toEqual([]);
    }
  });
});

if (onPostgres()) {
  describe("a task's runs on the board (rows written in SQL, as the runner does)", () => {
    const insertRun = (taskId: string, attempt: number, status = "queued", createdAt = new Date(Date.UTC(2026, 0, 1, 0, attempt))) =>
      sql(
        `INSERT INTO task_runs (id, task_id, workspace_id, attempt_number, status, trigger, created_at) VALUES ($1, $2, $3, $4, $5, 'manual', $6)`,
        [crypto.randomUUID(), taskId, ws, attempt, status, createdAt],
      );

    it("show the 10 newest, newest first, and the newest's status, error and trigger", async () => {
      const task = await createTask(token, ws, { title: "many runs" });
      for (let attempt = 1; attempt <= 12; attempt++) await insertRun(task.id, attempt, attempt === 12 ? "running" : "succeeded");
      const item = await boardItem(task.id);
      const runs = await call("GET", `/api/workspaces/${ws}/tasks/${task.id}/runs`, { token });
      expect(runs.body).toHaveLength(12);
      // The history adds each run's execution_id (to open its view) and why a queued one waits; the run record itself is the same.
      expect(item.task_runs).toEqual(runs.body.slice(0, 10).map(withoutExecutionId));
      expect(item.task_runs.map((run: { attempt_number: number }) => run.attempt_number)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3]);
      expect(item).toMatchObject({ latest_run_status: "running", latest_run_trigger: "manual", latest_run_error: null });

      await sql(
        `UPDATE task_runs SET status = 'failed', error_message = 'boom', exit_code = 1 WHERE task_id = $1 AND attempt_number = 12`,
        [task.id],
      );
      expect(await boardItem(task.id)).toMatchObject({ latest_run_status: "failed", latest_run_error: "boom" });

      await sql(`DELETE FROM task_runs WHERE task_id = $1 AND attempt_number >= 11`, [task.id]);
      const after = await boardItem(task.id);
      expect(after.task_runs.map((run: { attempt_number: number }) => run.attempt_number)).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
      expect(after.latest_run_status).toBe("succeeded");

      await sql(`DELETE FROM task_runs WHERE task_id = $1`, [task.id]);
      expect(await boardItem(task.id)).toMatchObject({ task_runs: [], latest_run_status: null, latest_run_trigger: null });
    });

    it("follow a run moved to another task, on both tasks", async () => {
      const from = await createTask(token, ws, { title: "from" });
      const to = await createTask(token, ws, { title: "to" });
      await insertRun(from.id, 1);
      await sql(`UPDATE task_runs SET task_id = $2 WHERE task_id = $1`, [from.id, to.id]);
      expect((await boardItem(from.id)).task_runs).toEqual([]);
      expect((await boardItem(to.id)).task_runs).toHaveLength(1);
    });

    it("lose no run when two transactions add runs to one task at the same time", async () => {
      const task = await createTask(token, ws, { title: "concurrent" });
      await insertRun(task.id, 1); // so the task's row exists: a new row would serialize the two anyway
      // The first transaction holds its run uncommitted for a while; the second inserts meanwhile
      // and must wait for it, then count both (a refresh computed before waiting would miss it).
      const slow = sql(
        `BEGIN;
         INSERT INTO task_runs (id, task_id, workspace_id, attempt_number, status, trigger) VALUES ('${crypto.randomUUID()}', '${task.id}', '${ws}', 2, 'queued', 'manual');
         SELECT pg_sleep(0.6);
         COMMIT;`,
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      await Promise.all([slow, insertRun(task.id, 3, "queued", new Date())]);
      const item = await boardItem(task.id);
      expect(item.task_runs.map((run: { attempt_number: number }) => run.attempt_number).sort()).toEqual([1, 2, 3]);
    });
  });
}

/** A run history item without its execution_id: the run record the board embeds. */
function withoutExecutionId(item: Record<string, unknown>) {
  const run = { ...item };
  delete run.execution_id;
  delete run.waiting_for_runner;
  return run;
}
