import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../../scripts/lib/server.mjs";
import { createScratchDatabase } from "../../scripts/lib/postgres.mjs";
import {
  engineServer,
  finished,
  FIXTURE_AGENT,
  newStore,
  newTask,
  outputLines,
  workspaceOn,
  type EngineServer,
  type Store,
} from "../helpers/engine";

// What needs a server of its own: stored positions no request can make any more, an agent whose
// log lines are long, and a data directory the server creates itself.

let store: Store;
let server: EngineServer;
let token: string;
let wsId: string;

beforeAll(async () => {
  store = await newStore("malformed");
  server = await engineServer(store, { AGENT_COMMAND: FIXTURE_AGENT, AGENT_LOG_FLUSH_MS: "200" });
  ({ token, wsId } = await workspaceOn(server));
});

afterAll(async () => {
  await server?.stop();
  await store?.drop();
});

const ws = (p = "") => `/api/workspaces/${wsId}${p}`;

describe("positions at any stored value", () => {
  it("appends, moves and renumbers past positions where float precision has run out", async () => {
    const ids: string[] = [];
    for (const title of ["a", "b", "c", "d"]) ids.push((await newTask(server.call, token, wsId, { title, status: "todo" })).id);
    // Values the API no longer accepts, as a column written before the bound may hold them.
    await server.stop();
    await store.sql(
      `UPDATE tasks SET position = CASE title WHEN 'a' THEN -1e300 WHEN 'b' THEN 1 WHEN 'c' THEN 1e300 ELSE 1.7e308 END WHERE workspace_id = $1`,
      [wsId],
    );
    server = await engineServer(store, { AGENT_COMMAND: FIXTURE_AGENT, AGENT_LOG_FLUSH_MS: "200" });

    const order = async () =>
      (await server.call("GET", ws("/board/column/todo?limit=100"), { token })).body.items.map((t: { title: string }) => t.title);
    expect(await order()).toEqual(["a", "b", "c", "d"]);
    for (const title of ["e", "f"]) {
      const created = await server.call("POST", ws("/tasks"), { token, json: { title, status: "todo" } });
      expect(created.status, title).toBe(201);
    }
    expect(await order()).toEqual(["a", "b", "c", "d", "e", "f"]);
    // To the end, before the first, and into another column and back to the end.
    expect((await server.call("POST", ws(`/tasks/${ids[1]}/move`), { token, json: { column: "todo" } })).status).toBe(200);
    expect((await server.call("POST", ws(`/tasks/${ids[2]}/move`), { token, json: { column: "todo", before_id: ids[0] } })).status).toBe(
      200,
    );
    expect((await server.call("PATCH", ws(`/tasks/${ids[3]}`), { token, json: { status: "done" } })).status).toBe(200);
    expect((await server.call("PATCH", ws(`/tasks/${ids[3]}`), { token, json: { status: "todo" } })).status).toBe(200);
    expect(await order()).toEqual(["c", "a", "e", "f", "b", "d"]);
    const positions = (await server.call("GET", ws("/board/column/todo?limit=100"), { token })).body.items.map(
      (t: { position: number }) => t.position,
    );
    expect(positions.every((p: number) => Math.abs(p) < 1e6)).toBe(true);
  });
});

describe("execution log pages", () => {
  it("are capped at 1 MiB however many lines were asked for, and next_offset pages through the rest", async () => {
    const task = await newTask(server.call, token, wsId, { title: "wide log" });
    const started = await server.call("POST", ws(`/tasks/${task.id}/runs`), { token, json: { instructions: "wide 300" } });
    expect(started.status).toBe(202);
    const done = await finished(server.call, token, wsId, started.body.id, 60_000);
    expect(done.line_count).toBe(301); // the prompt, then 300 lines

    const lines: string[] = [];
    let offset = 0;
    let pages = 0;
    for (;;) {
      const page = await server.call("GET", ws(`/executions/${done.id}/log?offset=${offset}&limit=10000`), { token });
      expect(page.status).toBe(200);
      expect(page.body.offset).toBe(offset);
      expect(JSON.stringify(page.body.entries).length).toBeLessThanOrEqual(1024 * 1024);
      expect(page.body.next_offset).toBe(offset + page.body.entries.length);
      lines.push(...outputLines(page.body));
      offset = page.body.next_offset;
      pages++;
      if (page.body.complete) break;
      expect(page.body.entries.length).toBeGreaterThan(0);
    }
    expect(pages).toBe(3);
    expect(lines).toEqual(Array.from({ length: 300 }, (_, i) => `wide ${i} ${"w".repeat(10_000)}`));

    // The largest offset accepted, plus the largest limit, is past the integer range: still a page.
    const far = await server.call("GET", ws(`/executions/${done.id}/log?offset=2147483647&limit=10000`), { token });
    expect(far.status).toBe(200);
    expect(far.body).toMatchObject({ entries: [], next_offset: 2147483647, complete: true });
  });
});

describe("DATA_DIR", () => {
  it("is created owner-only (0700) when it does not exist", async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), "taskboard-datadir-"));
    const dataDir = path.join(parent, "nested", "data");
    const scratch = store.kind === "postgresql" ? await createScratchDatabase("taskboard_datadir") : undefined;
    const own = await startServer({ databaseUrl: scratch?.url, dataDir, label: "datadir" });
    try {
      expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
    } finally {
      await own.stop();
      await scratch?.drop();
      fs.rmSync(parent, { recursive: true, force: true });
    }
  }, 180_000); // a fresh directory: the embedded database's initdb and migrations, not a copy of the template
});
