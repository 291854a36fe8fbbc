import { describe, expect, it } from "vitest";
import { taskCard } from "@/lib/tasks/card-schemas";
import { seedSql } from "../../scripts/lib/bench-seed.mjs";
import { baseUrl, call, onlyError, uniqueName, userWithWorkspace } from "../helpers/api";
import { createTask, onPostgres, sql, TASK_FIELDS } from "../helpers/tasks";

// The board's cards (lib/tasks/card-schemas.ts, docs/PERFORMANCE.md "The board's weight"): GET …/board
// and a compact column page send what a card shows, with the questions and runs as counts; the
// interface's column page stays as it was unless the client asks for the compact form.

const CARD_FIELDS = Object.keys(taskCard.shape).sort();
/** The goal of issue #36: a card on the board weighs at most this many bytes on average, with the bench's runs and questions. */
const MAX_AVERAGE_CARD_BYTES = 600;

const made = userWithWorkspace();
const base = (ws = made.ws) => `/api/workspaces/${ws}`;
const get = (path: string) => call("GET", path, { token: made.token });

interface Column {
  key: string;
  total: number;
  has_more: boolean;
  items: Record<string, unknown>[];
}

async function newWorkspace(): Promise<string> {
  const response = await call("POST", "/api/workspaces", { token: made.token, json: { name: uniqueName("cards") } });
  expect(response.status).toBe(201);
  return response.body.id;
}

/** The board's bytes per card: the whole response body over the cards in it (wrapper included). */
async function boardBytesPerCard(ws: string, limit: number) {
  const response = await fetch(`${baseUrl()}${base(ws)}/board?limit=${limit}`, {
    headers: { authorization: `Bearer ${made.token}` },
  });
  const text = await response.text();
  const cards = (JSON.parse(text).columns as Column[]).reduce((n, column) => n + column.items.length, 0);
  return { cards, perCard: Buffer.byteLength(text) / cards };
}

async function untilRunEnds(ws: string, executionId: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const execution = await get(`${base(ws)}/executions/${executionId}`);
    if (execution.body.finished_at) return execution.body;
    if (Date.now() > deadline) throw new Error(`execution ${executionId} did not finish`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("the board's cards", () => {
  it("carry the card's fields only, with the task's values: questions and runs as counts and the newest run's status", async () => {
    const ws = await newWorkspace();
    const project = await call("POST", `${base(ws)}/projects`, { token: made.token, json: { name: "Apollo", phases: ["One", "Two"] } });
    const task = await createTask(made.token, ws, {
      status: "todo",
      title: "carded",
      description: "A long description the card does not carry. ".repeat(20),
      tags: ["a", "b"],
      project_id: project.body.id,
      phase: 2,
    });
    for (const content of ["Which?", "And?"]) {
      expect((await call("POST", `${base(ws)}/questions`, { token: made.token, json: { task_id: task.id, content } })).status).toBe(201);
    }
    const run = await call("POST", `${base(ws)}/tasks/${task.id}/runs`, { token: made.token, json: {} });
    expect(run.status).toBe(202);
    await untilRunEnds(ws, run.body.id);

    const full = (await get(`${base(ws)}/tasks/${task.id}`)).body;
    expect(full.questions).toHaveLength(2);
    expect(full.task_runs.length).toBeGreaterThan(0);
    expect(full.open_question_count).toBe(2);

    const board = await get(`${base(ws)}/board`);
    const card = (board.body.columns as Column[]).flatMap((column) => column.items).find((item) => item.id === task.id)!;
    expect(Object.keys(card).sort()).toEqual(CARD_FIELDS);
    expect(card).toEqual(taskCard.parse(full));
    expect(card).toMatchObject({
      project_name: "Apollo",
      phase_name: "Two",
      open_question_count: 2,
      blocked: true,
      latest_run_status: full.latest_run_status,
    });
    expect(card.latest_run_status).not.toBeNull();
    for (const heavy of ["description", "questions", "task_runs", "blocked_by", "blocks"]) expect(card).not.toHaveProperty(heavy);

    // A compact column page sends the same card; the default page the task record, as before.
    const status = full.status as string;
    const compact = await get(`${base(ws)}/board/column/${status}?view=compact`);
    expect(compact.body.items.find((item: { id: string }) => item.id === task.id)).toEqual(card);
    const page = await get(`${base(ws)}/board/column/${status}`);
    expect(Object.keys(page.body.items[0]).sort()).toEqual(TASK_FIELDS);
    expect(page.body.items.find((item: { id: string }) => item.id === task.id)).toEqual(full);
    expect((await get(`${base(ws)}/board/column/${status}?view=full`)).body).toEqual(page.body);
  });

  it("weigh at most 600 bytes on average, however many runs and questions their tasks have", async () => {
    const ws = await newWorkspace();
    const project = await call("POST", `${base(ws)}/projects`, {
      token: made.token,
      json: { name: "Project 7", phases: ["Design", "Build"] },
    });
    const columns = ["backlog", "todo", "in_progress", "in_review", "done"];
    // As the bench seeds them: a description of ~200 characters, two tags, a project on every third.
    for (let i = 1; i <= 25; i++) {
      const task = await createTask(made.token, ws, {
        status: columns[i % 5],
        title: `Task ${i}`,
        description: `Seeded task number ${i}. ${"Some description text. ".repeat(8)}`,
        priority: `p${i % 5}`,
        tags: ["bench", `tag${i % 7}`],
        ...(i % 3 === 0 ? { project_id: project.body.id, phase: 1 } : {}),
      });
      // Questions on every other task (more than the bench's tenth): the card counts them, however many.
      if (i % 2 === 0) {
        for (let q = 0; q < 3; q++) {
          const content = `Which approach for ${task.title}, option ${q}? ${"Context. ".repeat(10)}`;
          expect((await call("POST", `${base(ws)}/questions`, { token: made.token, json: { task_id: task.id, content } })).status).toBe(
            201,
          );
        }
      }
    }
    const { cards, perCard } = await boardBytesPerCard(ws, 100);
    expect(cards).toBe(25);
    expect(perCard).toBeLessThanOrEqual(MAX_AVERAGE_CARD_BYTES);
  });

  it("come in pages of up to 500 that never overlap or skip, in one SQL statement whatever the page size", async () => {
    const ws = await newWorkspace();
    const created = [];
    for (let i = 0; i < 23; i++) created.push((await createTask(made.token, ws, { status: "in_review", title: `p${i % 4}` })).id);
    for (const sortBy of ["position", "title"]) {
      const full = await get(`${base(ws)}/board/column/in_review?limit=100&sort_by=${sortBy}`);
      const paged: string[] = [];
      for (let offset = 0; offset < 23; offset += 6) {
        const page = await get(`${base(ws)}/board/column/in_review?view=compact&limit=6&offset=${offset}&sort_by=${sortBy}`);
        expect(page.status).toBe(200);
        expect(page.body.total).toBe(23);
        expect(page.body.has_more).toBe(offset + page.body.items.length < 23);
        for (const item of page.body.items) expect(Object.keys(item).sort()).toEqual(CARD_FIELDS);
        paged.push(...page.body.items.map((t: { id: string }) => t.id));
      }
      expect(paged, sortBy).toEqual(full.body.items.map((t: { id: string }) => t.id));
    }
    const statements = new Set<string | null>();
    for (const url of [
      `${base(ws)}/board/column/in_review?view=compact&limit=1`,
      `${base(ws)}/board/column/in_review?view=compact&limit=500`,
      `${base(ws)}/board?limit=1`,
      `${base(ws)}/board?limit=500`,
    ]) {
      const response = await get(url);
      expect(response.status).toBe(200);
      statements.add(response.headers.get("x-sql-statements"));
    }
    expect([...statements]).toEqual(["1"]);
    const all = await get(`${base(ws)}/board/column/in_review?view=compact&limit=500`);
    expect(all.body).toMatchObject({ total: 23, has_more: false });
    expect(all.body.items.map((t: { id: string }) => t.id)).toEqual(created);
  });

  it.each([
    ["/board/column/todo?view=compact&limit=501", ["query", "limit"], "less_than_equal"],
    ["/board/column/todo?limit=101", ["query", "limit"], "less_than_equal"],
    ["/board/column/todo?view=full&limit=101", ["query", "limit"], "less_than_equal"],
    ["/board/column/todo?view=cards", ["query", "view"], "enum"],
    ["/board/column/todo?view=compact&limit=0", ["query", "limit"], "greater_than_equal"],
    ["/board?limit=501", ["query", "limit"], "less_than_equal"],
  ])("422 for %s at %j (%s)", async (path, loc, type) => {
    const response = await get(`${base()}${path}`);
    expect(response.status).toBe(422);
    expect(onlyError(response.body)).toEqual({ loc, type });
  });

  it("the full column page allows 100, the compact one 500", async () => {
    expect((await get(`${base()}/board/column/todo?limit=100`)).status).toBe(200);
    expect((await get(`${base()}/board/column/todo?view=compact&limit=500`)).status).toBe(200);
    expect((await get(`${base()}/board?limit=500`)).status).toBe(200);
  });
});

if (onPostgres()) {
  describe("the board's cards with the bench's seed (rows inserted in SQL)", () => {
    it("weigh at most 600 bytes on average, and all of a column's cards come in pages of 500", async () => {
      const ws = await newWorkspace();
      // The bench's own seed (scripts/lib/bench-seed.mjs): questions on a tenth of the tasks (half
      // open), three runs on a fifth, a project on a third; 120 tasks per column here.
      await sql(seedSql(ws, 120));
      const { cards, perCard } = await boardBytesPerCard(ws, 100);
      expect(cards).toBe(500);
      expect(perCard).toBeLessThanOrEqual(MAX_AVERAGE_CARD_BYTES);
      const withRuns = await get(`${base(ws)}/board/column/todo?limit=100`);
      expect(withRuns.body.items.some((t: { task_runs: unknown[] }) => t.task_runs.length === 3)).toBe(true);

      const first = await get(`${base(ws)}/board/column/done?view=compact&limit=100`);
      const rest = await get(`${base(ws)}/board/column/done?view=compact&limit=500&offset=100`);
      expect(rest.body).toMatchObject({ total: 120, has_more: false });
      const ids = [...first.body.items, ...rest.body.items].map((t: { id: string }) => t.id);
      expect(new Set(ids).size).toBe(120);
      expect(first.body.items.filter((t: { open_question_count: number }) => t.open_question_count > 0).length).toBeGreaterThan(0);
    });
  });
}
