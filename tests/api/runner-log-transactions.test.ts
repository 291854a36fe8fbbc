import { expect, it } from "vitest";
import { dedicatedRunnerWorkspace } from "../helpers/claims";

// A runner's log request bigger than one PGlite transaction takes (lib/dispatch/append-runner-log.ts
// cuts it between runs there; PostgreSQL stores it in one): the same answer and the same log on both.
// On the shared server, with a dedicated runner only this test's workspace chose.

it("stores a request of several transactions in order, and each entry once when it is sent again", async () => {
  const { server, ws, runner } = await dedicatedRunnerWorkspace("big-request", { capacity: 3 });
  const runs: string[] = [];
  for (const title of ["big 1", "big 2", "big 3"]) {
    const { executionId } = await ws.queue(title);
    expect(await runner.claim()).toBe(executionId);
    runs.push(executionId);
  }
  const lines = (id: string, count: number) =>
    Array.from({ length: count }, (_, i) => ({ type: "output", update: { stream: "stdout", text: `${id} ${i}` } }));
  // 150 + 150 + 10 entries: past the 200 a PGlite transaction takes, so at least two transactions there.
  const counts = [150, 150, 10];
  const request = { batches: runs.map((id, i) => ({ execution_id: id, first_seq: 0, entries: lines(id, counts[i]) })) };
  const expected = { results: runs.map((id, i) => ({ execution_id: id, next_seq: counts[i], error: null })) };
  expect((await runner.call("POST", "/log", request)).body).toEqual(expected);
  expect((await runner.call("POST", "/log", request)).body).toEqual(expected);
  for (const [i, id] of runs.entries()) {
    const log = (await server.call("GET", `/api/workspaces/${ws.wsId}/executions/${id}/log?limit=1000`, { token: ws.token })).body;
    expect(log.entries.map((e: { seq: number; update: { text: string } }) => `${e.seq}:${e.update.text}`)).toEqual(
      lines(id, counts[i]).map((line, seq) => `${seq}:${line.update.text}`),
    );
    expect((await ws.execution(id)).line_count).toBe(counts[i]);
    await runner.finish(id);
  }
  await runner.remove();
});
