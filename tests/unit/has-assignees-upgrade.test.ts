// A card looks its assignees up only when the task's has_assignees says it has any
// (lib/db/task-json-sql.ts). This upgrades a database with an assigned task and an unassigned one
// from before 20261207104222_task_has_assignees and checks that the flag was set for the first only.
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { applyMigrations } from "@/lib/db/migrate";
import { freshDatabase } from "../helpers/fresh-database";
import { migrationsBefore } from "../helpers/migrations-before";

describe("tasks.has_assignees after an upgrade", () => {
  it("is true for the tasks assigned before it existed, and only for them", async () => {
    const older = migrationsBefore("20261207104222_task_has_assignees");
    const db = await freshDatabase();
    try {
      await applyMigrations(db.session, older);
      await db.query(`INSERT INTO users (id, username, password_hash, updated_at) VALUES ('u1', 'ann', '-', now())`);
      await db.query(`INSERT INTO workspaces (id, name, updated_at) VALUES ('w1', 'W', now())`);
      await db.query(
        `INSERT INTO tasks (id, workspace_id, title, position, updated_at) VALUES ('t1', 'w1', 'A', 1, now()), ('t2', 'w1', 'B', 2, now())`,
      );
      await db.query(`INSERT INTO task_assignees (id, workspace_id, task_id, user_id, position) VALUES ('a1', 'w1', 't1', 'u1', 0)`);

      await applyMigrations(db.session);

      const rows = await db.query(`SELECT id, has_assignees FROM tasks ORDER BY id`);
      expect(rows).toEqual([
        { id: "t1", has_assignees: true },
        { id: "t2", has_assignees: false },
      ]);
    } finally {
      await db.close();
      fs.rmSync(older, { recursive: true, force: true });
    }
  });
});
