import crypto from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { call, userWithWorkspace } from "../helpers/api";
import { createTask, sql } from "../helpers/tasks";

// What a task shows of the rows around it: its project and phase, open questions, its runs.

const made = userWithWorkspace();
let token: string;
let ws: string;
beforeAll(() => ({ token, ws } = made));
const tasks = (path = "") => `/api/workspaces/${ws}/tasks${path}`;

// Projects, questions and runs have no create route in this branch; on the PostgreSQL pass (this folder)
// the tests write those rows straight into the database to check the enrichment.
describe("projects, phases, questions and runs (rows inserted in SQL)", () => {
  it("project_name and phase_name come from the linked project; phase must fit its phases", async () => {
    const projectId = crypto.randomUUID();
    await sql(
      `INSERT INTO projects (id, workspace_id, name, phases, updated_at) VALUES ($1, $2, 'Apollo', ARRAY['Design','Build','Launch'], now())`,
      [projectId, ws],
    );
    const task = await createTask(token, ws, { project_id: projectId, phase: 2 });
    expect(task).toMatchObject({ project_id: projectId, project_name: "Apollo", phase: 2, phase_name: "Build" });

    const tooFar = await call("POST", tasks(), { token, json: { title: "t", project_id: projectId, phase: 4 } });
    expect(tooFar.status).toBe(422);
    expect(tooFar.body.detail).toEqual([expect.objectContaining({ loc: ["body", "phase"], type: "less_than_equal", ctx: { le: 3 } })]);
    const patchTooFar = await call("PATCH", tasks(`/${task.id}`), { token, json: { phase: 9 } });
    expect(patchTooFar.status).toBe(422);

    const unlinked = await call("PATCH", tasks(`/${task.id}`), { token, json: { project_id: null } });
    expect(unlinked.body).toMatchObject({ project_id: null, project_name: null, phase: 2, phase_name: null });
  });

  it("an open question makes the task blocked and is listed; an answered one is not", async () => {
    const task = await createTask(token, ws, { title: "Needs input" });
    const openId = crypto.randomUUID();
    await sql(
      `INSERT INTO questions (id, workspace_id, task_id, content, context, options, priority) VALUES ($1, $2, $3, 'Which DB?', 'ctx', '["a","b"]', 1)`,
      [openId, ws, task.id],
    );
    await sql(
      `INSERT INTO questions (id, workspace_id, task_id, content, answer, status, answered_at) VALUES ($1, $2, $3, 'Old?', 'yes', 'answered', now())`,
      [crypto.randomUUID(), ws, task.id],
    );
    const response = await call("GET", tasks(`/${task.id}`), { token });
    expect(response.body.blocked).toBe(true);
    expect(response.body.questions).toHaveLength(1);
    const question = response.body.questions[0];
    expect(Object.keys(question).sort()).toEqual(
      [
        "id",
        "workspace_id",
        "task_id",
        "task_title",
        "content",
        "context",
        "options",
        "answer",
        "status",
        "priority",
        "created_at",
        "answered_at",
        "answered_by",
        "answered_via",
        "execution_id",
      ].sort(),
    );
    expect(question).toMatchObject({
      id: openId,
      workspace_id: ws,
      task_id: task.id,
      task_title: "Needs input",
      content: "Which DB?",
      context: "ctx",
      options: ["a", "b"],
      answer: null,
      status: "open",
      priority: 1,
      answered_at: null,
      answered_by: null,
      answered_via: null,
    });
    expect(new Date(question.created_at).toISOString()).toBe(question.created_at);
  });

  it("task_runs lists the 10 newest runs, newest first, and latest_run_* the newest", async () => {
    const task = await createTask(token, ws);
    for (let attempt = 1; attempt <= 12; attempt++) {
      await sql(
        `INSERT INTO task_runs (id, task_id, workspace_id, attempt_number, status, trigger, error_message, exit_code, started_at, created_at, finished_at, duration_seconds)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 1, now() - make_interval(mins => 20 - $4), now() - make_interval(mins => 20 - $4), now(), 1.5)`,
        [
          crypto.randomUUID(),
          task.id,
          ws,
          attempt,
          attempt === 12 ? "failed" : "succeeded",
          attempt === 12 ? "schedule" : "manual",
          attempt === 12 ? "boom" : null,
        ],
      );
    }
    const response = await call("GET", tasks(`/${task.id}`), { token });
    const runs = response.body.task_runs;
    expect(runs.map((run: { attempt_number: number }) => run.attempt_number)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3]);
    expect(Object.keys(runs[0]).sort()).toEqual(
      [
        "id",
        "task_id",
        "session_id",
        "attempt_number",
        "status",
        "exit_code",
        "error_message",
        "started_at",
        "finished_at",
        "duration_seconds",
        "trigger",
        "agent_id",
        "agent_name",
        "usage",
        "commit_sha",
        "files_changed",
        "lines_added",
        "lines_removed",
        "model",
        "no_output",
      ].sort(),
    );
    expect(runs[0]).toMatchObject({
      status: "failed",
      trigger: "schedule",
      error_message: "boom",
      exit_code: 1,
      duration_seconds: 1.5,
      session_id: null,
    });
    expect(response.body).toMatchObject({ latest_run_status: "failed", latest_run_error: "boom", latest_run_trigger: "schedule" });
  });
});
