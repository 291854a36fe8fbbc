import crypto from "node:crypto";
import { beforeAll, expect, it } from "vitest";
import { call, userWithWorkspace } from "../helpers/api";
import { createTask, sql } from "../helpers/tasks";

// Rows written before answered_by existed: the migration adds the column empty, so they read null.
// PostgreSQL only (this folder): the row is written straight into the database, which the test can
// reach beside the server only there (PGlite's directory belongs to the server's process).

const made = userWithWorkspace();
let token: string;
let ws: string;
beforeAll(() => ({ token, ws } = made));

it("answers that predate answered_by have it null, in the list and in the answered pages", async () => {
  const task = await createTask(token, ws, { title: "Old questions" });
  const id = crypto.randomUUID();
  await sql(
    `INSERT INTO questions (id, workspace_id, task_id, content, answer, status, answered_at) VALUES ($1, $2, $3, 'Old?', 'yes', 'answered', now())`,
    [id, ws, task.id],
  );
  const listed = await call("GET", `/api/workspaces/${ws}/questions?task_id=${task.id}&status=answered`, { token });
  expect(listed.body.find((x: { id: string }) => x.id === id)).toMatchObject({ answer: "yes", status: "answered", answered_by: null });
  const paged = await call("GET", `/api/workspaces/${ws}/questions?status=answered&limit=1`, { token });
  expect(paged.body.map((x: { id: string }) => x.id)).toEqual([id]);
});
