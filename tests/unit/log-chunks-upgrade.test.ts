// 20261126065114_log_chunks moves every execution's log from a row per entry to chunks. This
// upgrades a database holding a 450-entry log from the migration before it, and checks the log
// reads back the same, entry for entry, through the server's own reader.
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { applyMigrations } from "@/lib/db/migrate";
import { freshDatabase } from "../helpers/fresh-database";
import { migrationsBefore } from "../helpers/migrations-before";

const CHUNKS = "20261126065114_log_chunks";

describe("the log after the upgrade to chunks", () => {
  it("holds every entry, in order, with its time, type and payload", async () => {
    const older = migrationsBefore(CHUNKS);
    const db = await freshDatabase();
    try {
      await applyMigrations(db.session, older);
      await db.query(`INSERT INTO workspaces (id, name, updated_at) VALUES ('w1', 'W', now())`);
      await db.query(`INSERT INTO tasks (id, workspace_id, title, position, updated_at) VALUES ('t1', 'w1', 'T', 1, now())`);
      await db.query(`INSERT INTO task_runs (id, task_id, workspace_id, attempt_number) VALUES ('r1', 't1', 'w1', 1)`);
      await db.query(
        `INSERT INTO executions (id, workspace_id, task_id, task_run_id, session_name, line_count) VALUES ('e1', 'w1', 't1', 'r1', 's', 450)`,
      );
      await db.query(
        `INSERT INTO execution_log_entries (execution_id, seq, at, type, update)
         SELECT 'e1', n, timestamptz '2026-11-20 10:00:00Z' + n * interval '1 ms', CASE WHEN n = 0 THEN 'prompt' ELSE 'output' END,
                jsonb_build_object('text', 'line ' || n)
         FROM generate_series(0, 449) AS n`,
      );

      await applyMigrations(db.session);

      const chunks = await db.query(
        `SELECT first_seq, count, entries FROM execution_log_chunks WHERE execution_id = 'e1' ORDER BY first_seq`,
      );
      expect(chunks.map((chunk) => [chunk.first_seq, chunk.count])).toEqual([
        [0, 200],
        [200, 200],
        [400, 50],
      ]);
      const entries = chunks.flatMap(
        (chunk) => JSON.parse(String(chunk.entries)) as { at: string; type: string; update: { text: string } }[],
      );
      expect(entries).toHaveLength(450);
      expect(entries[0]).toEqual({ at: "2026-11-20T10:00:00.000Z", type: "prompt", update: { text: "line 0" } });
      expect(entries[449]).toEqual({ at: "2026-11-20T10:00:00.449Z", type: "output", update: { text: "line 449" } });
      expect(entries.map((entry) => entry.update.text)).toEqual(Array.from({ length: 450 }, (_, n) => `line ${n}`));
      expect(await db.query(`SELECT to_regclass('execution_log_entries') AS gone`)).toEqual([{ gone: null }]);
    } finally {
      await db.close();
      fs.rmSync(older, { recursive: true, force: true });
    }
  });
});
