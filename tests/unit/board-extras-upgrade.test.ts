// task_board_extras holds JSON written by task_board_extras_refresh (prisma/sql/functions), and a
// row keeps the shape of the day it was last refreshed. This upgrades a database that has a run
// and an open question from before 20261125104528_agent_presets_model_and_output to today, and
// checks the stored JSON has every field of a run and of a question the board serves.
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { applyMigrations } from "@/lib/db/migrate";
import { taskRunResponse } from "@/lib/tasks/schemas";
import { questionResponse } from "@/lib/questions/schemas";
import { freshDatabase } from "../helpers/fresh-database";
import { migrationsBefore } from "../helpers/migrations-before";

// How the API serves a timestamp (taskboard_iso), like Date.toISOString().
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const BEFORE = "20261125104528_agent_presets_model_and_output";

describe("task_board_extras after an upgrade", () => {
  it("stores every field of a run and of an open question, for rows written by older migrations", async () => {
    const older = migrationsBefore(BEFORE);
    const db = await freshDatabase();
    try {
      await applyMigrations(db.session, older);
      await db.query(`INSERT INTO workspaces (id, name, updated_at) VALUES ('w1', 'W', now())`);
      await db.query(`INSERT INTO tasks (id, workspace_id, title, position, updated_at) VALUES ('t1', 'w1', 'T', 1, now())`);
      await db.query(`INSERT INTO task_runs (id, task_id, workspace_id, attempt_number) VALUES ('r1', 't1', 'w1', 1)`);
      await db.query(`INSERT INTO questions (id, workspace_id, task_id, content) VALUES ('q1', 'w1', 't1', 'Which?')`);

      await applyMigrations(db.session);

      const [row] = await db.query(
        `SELECT runs::text AS runs, open_questions::text AS questions FROM task_board_extras WHERE task_id = 't1'`,
      );
      const [run] = JSON.parse(String(row.runs));
      expect(run).toMatchObject({ id: "r1", model: null, no_output: false, started_at: expect.stringMatching(ISO) });
      expect(Object.keys(run).sort()).toEqual(Object.keys(taskRunResponse.shape).sort());
      const [question] = JSON.parse(String(row.questions));
      expect(question).toMatchObject({ id: "q1", answered_by: null, execution_id: null });
      expect(Object.keys(question).sort()).toEqual(Object.keys(questionResponse.shape).sort());
    } finally {
      await db.close();
      fs.rmSync(older, { recursive: true, force: true });
    }
  });
});
