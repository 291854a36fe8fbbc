import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openOwnDatabase } from "@/tests/helpers/db";
import { appendLogBatches, appendLogEntries } from "@/lib/runs/append-log-entries";
import { readExecutionLog } from "@/lib/runs/read-execution-log";

// The log is stored in chunks (a row per run per batch); these check that chunking never shows:
// pages start and end anywhere, across chunk boundaries, and a batch sent again stores nothing twice.

let database: Awaited<ReturnType<typeof openOwnDatabase>>;
beforeAll(async () => {
  database = await openOwnDatabase();
});
afterAll(async () => {
  await database?.close();
});

async function newExecution() {
  const { db } = database;
  const workspace = await db.workspace.create({ data: { name: `log ${Math.random()}` } });
  const task = await db.task.create({ data: { workspaceId: workspace.id, title: "log", position: 1 } });
  const run = await db.taskRun.create({ data: { taskId: task.id, workspaceId: workspace.id, attemptNumber: 1 } });
  const execution = await db.execution.create({
    data: { workspaceId: workspace.id, taskId: task.id, taskRunId: run.id, sessionName: "log" },
  });
  return { workspaceId: workspace.id, executionId: execution.id };
}

const lines = (from: number, count: number, text = "") =>
  Array.from({ length: count }, (_, i) => ({ type: "output", update: { stream: "stdout", text: `line ${from + i}${text}` } }));

const chunkRows = (executionId: string) =>
  database.db.$queryRawUnsafe<{ first_seq: number; count: number }[]>(
    `SELECT first_seq, count FROM execution_log_chunks WHERE execution_id = $1 ORDER BY first_seq`,
    executionId,
  );

describe("the log in chunks", () => {
  it("pages from any offset, across chunk boundaries, as if stored entry by entry", async () => {
    const { workspaceId, executionId } = await newExecution();
    const { db } = database;
    await appendLogEntries(db, executionId, lines(0, 3));
    await appendLogEntries(db, executionId, lines(3, 700));
    // Two entries of 40 kB do not fit one 64 kB chunk: each gets its own.
    await appendLogEntries(db, executionId, lines(703, 2, "x".repeat(40_000)));

    expect(await chunkRows(executionId)).toEqual([
      { first_seq: 0, count: 3 },
      { first_seq: 3, count: 500 },
      { first_seq: 503, count: 200 },
      { first_seq: 703, count: 1 },
      { first_seq: 704, count: 1 },
    ]);
    const texts = async (offset: number, limit: number) =>
      (await readExecutionLog(db, workspaceId, executionId, offset, limit)).entries.map((entry) => [entry.seq, entry.update.text]);
    const expected = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => [from + i, `line ${from + i}`]);

    expect(await texts(0, 10)).toEqual(expected(0, 10));
    expect(await texts(250, 5)).toEqual(expected(250, 255));
    expect(await texts(500, 10)).toEqual(expected(500, 510));
    expect((await texts(0, 703)).length).toBe(703);
    expect(await texts(0, 703)).toEqual(expected(0, 703));
    expect((await texts(702, 3)).map(([seq]) => seq)).toEqual([702, 703, 704]);
    expect(await texts(705, 10)).toEqual([]);
    const page = await readExecutionLog(db, workspaceId, executionId, 700, 100);
    expect(page).toMatchObject({ offset: 700, next_offset: 705, line_count: 705 });
    expect(page.entries[0]).toMatchObject({ seq: 700, type: "output", at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/) });
  });

  it("stores a batch sent again (a lost answer) once, and refuses one that would leave a gap", async () => {
    const { workspaceId, executionId } = await newExecution();
    const { db } = database;
    await appendLogBatches(db, [{ executionId, entries: lines(0, 4), firstSeq: 0 }]);
    const again = await appendLogBatches(db, [{ executionId, entries: lines(2, 5), firstSeq: 2 }]);
    expect(again).toEqual([{ executionId, offset: 4, count: 3 }]);
    const gap = await appendLogBatches(db, [{ executionId, entries: lines(9, 1), firstSeq: 9 }]);
    expect(gap[0]).toMatchObject({ executionId, error: { status: 409 } });
    expect(await chunkRows(executionId)).toEqual([
      { first_seq: 0, count: 4 },
      { first_seq: 4, count: 3 },
    ]);
    const page = await readExecutionLog(db, workspaceId, executionId, 0, 100);
    expect(page.entries.map((entry) => entry.update.text)).toEqual(Array.from({ length: 7 }, (_, i) => `line ${i}`));
  });
});
