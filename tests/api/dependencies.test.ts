import { beforeAll, describe, expect, it } from "vitest";
import { call, newUser, newWorkspace, userWithWorkspace } from "../helpers/api";
import { setBlocker } from "../helpers/dependencies";
import { taskCard } from "@/lib/tasks/card-schemas";
import { createTask } from "../helpers/tasks";

// Task dependencies ("task is blocked by blocker"): the routes, the cycle check, the task record's
// blocked_by / blocks / open_blocker_count (kept in task_board_extras by triggers) and the run refusal.
// The task's activity, read from the event log, is in task-activity.test.ts.

const made = userWithWorkspace();
let token: string;
let ws: string;
beforeAll(() => ({ token, ws } = made));

const base = () => `/api/workspaces/${ws}`;
const block = (taskId: string, blockerId: string, as = token) => setBlocker("POST", ws, taskId, blockerId, as);
const unblock = (taskId: string, blockerId: string, as = token) => setBlocker("DELETE", ws, taskId, blockerId, as);
const getTask = async (id: string) => (await call("GET", `${base()}/tasks/${id}`, { token })).body;
const onBoard = async (id: string) => {
  const board = await call("GET", `${base()}/board?limit=100`, { token });
  expect(board.status).toBe(200);
  for (const column of board.body.columns) {
    const found = column.items.find((item: { id: string }) => item.id === id);
    if (found) return found;
  }
  throw new Error(`task ${id} is not on the board`);
};

describe("adding and removing a blocker", () => {
  it("shows on both tasks, on the board, and is idempotent both ways", async () => {
    const task = await createTask(token, ws, { title: "build the roof", status: "todo" });
    const blocker = await createTask(token, ws, { title: "build the walls", status: "in_progress" });
    expect(task).toMatchObject({ blocked_by: [], blocks: [], open_blocker_count: 0 });

    const added = await block(task.id, blocker.id);
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ id: task.id, blocked_by: [blocker.id], blocks: [], open_blocker_count: 1 });
    expect(await getTask(blocker.id)).toMatchObject({ blocked_by: [], blocks: [task.id], open_blocker_count: 0 });
    // The board's card says the same (one statement; the count comes from task_board_extras).
    expect(await onBoard(task.id)).toEqual(taskCard.parse(await getTask(task.id)));
    const column = await call("GET", `${base()}/board/column/todo?limit=100`, { token });
    expect(column.body.items.find((item: { id: string }) => item.id === task.id).open_blocker_count).toBe(1);

    const again = await block(task.id, blocker.id);
    expect(again.status).toBe(200);
    expect(again.body.blocked_by).toEqual([blocker.id]);

    const listed = await call("GET", `${base()}/tasks/${task.id}/dependencies`, { token });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      blocked_by: [{ id: blocker.id, number: blocker.number, title: "build the walls", status: "in_progress" }],
      blocks: [],
    });
    expect((await call("GET", `${base()}/tasks/${blocker.id}/dependencies`, { token })).body.blocks).toEqual([
      { id: task.id, number: task.number, title: "build the roof", status: "todo" },
    ]);

    const removed = await unblock(task.id, blocker.id);
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ blocked_by: [], open_blocker_count: 0 });
    expect((await getTask(blocker.id)).blocks).toEqual([]);
    expect((await unblock(task.id, blocker.id)).status).toBe(200);
  });

  it("counts only blockers that are not done, following moves into and out of done", async () => {
    const task = await createTask(token, ws, { title: "ship", status: "todo" });
    const first = await createTask(token, ws, { title: "test", status: "todo" });
    const second = await createTask(token, ws, { title: "review", status: "done" });
    await block(task.id, first.id);
    expect((await block(task.id, second.id)).body).toMatchObject({ blocked_by: [first.id, second.id], open_blocker_count: 1 });

    expect((await call("POST", `${base()}/tasks/${first.id}/move`, { token, json: { column: "done" } })).status).toBe(200);
    expect(await onBoard(task.id)).toMatchObject({ open_blocker_count: 0 });
    expect((await call("PATCH", `${base()}/tasks/${second.id}`, { token, json: { status: "in_review" } })).status).toBe(200);
    expect(await onBoard(task.id)).toMatchObject({ open_blocker_count: 1 });

    // A deleted blocker takes its dependency with it.
    expect((await call("DELETE", `${base()}/tasks/${second.id}`, { token })).status).toBe(204);
    expect(await getTask(task.id)).toMatchObject({ blocked_by: [first.id], open_blocker_count: 0 });
  });

  it("refuses a task blocking itself, and a dependency closing a cycle, naming the cycle's tasks", async () => {
    const a = await createTask(token, ws, { title: "alpha" });
    const b = await createTask(token, ws, { title: "beta" });
    const c = await createTask(token, ws, { title: "gamma" });

    const self = await block(a.id, a.id);
    expect(self.status).toBe(422);
    expect(self.body.detail[0]).toMatchObject({ loc: ["path", "blocker_id"], type: "value_error" });

    await block(a.id, b.id); // alpha waits for beta
    const two = await block(b.id, a.id);
    expect(two.status).toBe(422);
    expect(two.body.detail[0].msg).toContain(`#${b.number} “beta” → #${a.number} “alpha” → #${b.number} “beta”`);

    await block(b.id, c.id); // beta waits for gamma
    const three = await block(c.id, a.id); // gamma would wait for alpha: alpha → beta → gamma → alpha
    expect(three.status).toBe(422);
    expect(three.body.detail[0]).toMatchObject({ loc: ["path", "blocker_id"], type: "value_error" });
    expect(three.body.detail[0].msg).toContain(`#${c.number} “gamma” → #${a.number} “alpha” → #${b.number} “beta” → #${c.number} “gamma”`);
    expect(three.body.detail[0].ctx.cycle.map((t: { id: string }) => t.id)).toEqual([c.id, a.id, b.id, c.id]);
    expect((await getTask(c.id)).blocked_by).toEqual([]);

    // Not a cycle: alpha may also wait for gamma directly.
    expect((await block(a.id, c.id)).status).toBe(200);
  });

  it("of two concurrent opposite adds, lets exactly one through", async () => {
    const a = await createTask(token, ws, { title: "left" });
    const b = await createTask(token, ws, { title: "right" });
    const results = await Promise.all([block(a.id, b.id), block(b.id, a.id)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
  });

  it("answers 404 for a task or blocker of another workspace, or unknown, and 401/404 to strangers", async () => {
    const task = await createTask(token, ws, { title: "here" });
    const otherWs = (await newWorkspace(token)).id;
    const elsewhere = await createTask(token, otherWs, { title: "there" });
    expect((await block(task.id, elsewhere.id)).status).toBe(404);
    expect((await call("POST", `${base()}/tasks/${elsewhere.id}/dependencies/${task.id}`, { token })).status).toBe(404);
    expect((await call("POST", `/api/workspaces/${otherWs}/tasks/${elsewhere.id}/dependencies/${task.id}`, { token })).status).toBe(404);
    expect((await block(task.id, "0190b8f0-0000-7000-8000-000000000001")).status).toBe(404);
    expect((await unblock(task.id, elsewhere.id)).status).toBe(404);
    expect((await call("GET", `${base()}/tasks/${elsewhere.id}/dependencies`, { token })).status).toBe(404);

    const blocker = await createTask(token, ws, { title: "blocker" });
    expect((await call("POST", `${base()}/tasks/${task.id}/dependencies/${blocker.id}`)).status).toBe(401);
    expect((await block(task.id, blocker.id, "not-a-token")).status).toBe(401);
    const stranger = await newUser();
    expect((await block(task.id, blocker.id, stranger.token)).status).toBe(404);
    expect((await unblock(task.id, blocker.id, stranger.token)).status).toBe(404);
    expect((await call("GET", `${base()}/tasks/${task.id}/activity`, { token: stranger.token })).status).toBe(404);
    expect((await call("GET", `${base()}/tasks/${task.id}/activity`)).status).toBe(401);
    expect((await getTask(task.id)).blocked_by).toEqual([]);
  });
});

describe("a run on a blocked task", () => {
  it("is refused with 409 naming the open blockers, unless forced", async () => {
    const task = await createTask(token, ws, { title: "deploy", status: "todo" });
    const blocker = await createTask(token, ws, { title: "migrate the database", status: "in_progress" });
    await block(task.id, blocker.id);

    const refused = await call("POST", `${base()}/tasks/${task.id}/runs`, { token, json: {} });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain(`#${blocker.number} “migrate the database” (in_progress)`);
    expect((await call("GET", `${base()}/tasks/${task.id}/runs`, { token })).body).toEqual([]);

    const badForce = await call("POST", `${base()}/tasks/${task.id}/runs`, { token, json: { force: "yes" } });
    expect(badForce.status).toBe(422);
    expect(badForce.body.detail[0].loc).toEqual(["body", "force"]);

    const forced = await call("POST", `${base()}/tasks/${task.id}/runs`, { token, json: { force: true } });
    expect(forced.status).toBe(202);
    expect(forced.body.task_id).toBe(task.id);
  });

  it("makes a schedule's Trigger now answer 409 with the reason", async () => {
    const task = await createTask(token, ws, { title: "nightly build", status: "todo" });
    const blocker = await createTask(token, ws, { title: "fix the build", status: "todo" });
    await block(task.id, blocker.id);
    const schedule = await call("POST", `${base()}/schedules`, {
      token,
      json: { name: "nightly", cron: "0 3 * * *", task_id: task.id, default_instructions: "go" },
    });
    expect(schedule.status).toBe(201);
    const fired = await call("POST", `${base()}/schedules/${schedule.body.id}/trigger`, { token });
    expect(fired.status).toBe(409);
    expect(fired.body.detail).toContain(`#${blocker.number} “fix the build”`);
  });
});

describe("the workspace setting auto_start_unblocked", () => {
  it("is off by default, and only owners change it", async () => {
    expect((await call("GET", base(), { token })).body.auto_start_unblocked).toBe(false);
    const member = await newUser();
    expect((await call("POST", `${base()}/members`, { token, json: { username: member.username } })).status).toBe(201);
    expect((await call("PATCH", base(), { token: member.token, json: { auto_start_unblocked: true } })).status).toBe(403);
    const bad = await call("PATCH", base(), { token, json: { auto_start_unblocked: "on" } });
    expect(bad.status).toBe(422);
    const other = (await newWorkspace(token)).id;
    const on = await call("PATCH", `/api/workspaces/${other}`, { token, json: { auto_start_unblocked: true } });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ id: other, auto_start_unblocked: true, role: "owner" });
  });

  it("starts the default agent on each todo dependant when its last blocker moves to done", async () => {
    const auto = (await newWorkspace(token)).id;
    expect((await call("PATCH", `/api/workspaces/${auto}`, { token, json: { auto_start_unblocked: true } })).status).toBe(200);
    const at = `/api/workspaces/${auto}`;
    const ready = await createTask(token, auto, { title: "ready after both", status: "todo" });
    const backlog = await createTask(token, auto, { title: "still in backlog", status: "backlog" });
    const first = await createTask(token, auto, { title: "first", status: "in_progress" });
    const second = await createTask(token, auto, { title: "second", status: "in_progress" });
    for (const [taskId, blockerId] of [
      [ready.id, first.id],
      [ready.id, second.id],
      [backlog.id, second.id],
    ]) {
      expect((await call("POST", `${at}/tasks/${taskId}/dependencies/${blockerId}`, { token })).status).toBe(200);
    }
    const runsOf = async (id: string) => (await call("GET", `${at}/tasks/${id}/runs`, { token })).body;

    expect((await call("POST", `${at}/tasks/${first.id}/move`, { token, json: { column: "done" } })).status).toBe(200);
    expect(await runsOf(ready.id)).toEqual([]); // one blocker is still open
    expect((await call("PATCH", `${at}/tasks/${second.id}`, { token, json: { status: "done" } })).status).toBe(200);
    // Started after the commit of the move, before its answer.
    const runs = await runsOf(ready.id);
    expect(runs).toHaveLength(1);
    expect(runs[0].trigger).toBe("manual");
    expect(await runsOf(backlog.id)).toEqual([]);

    // Off (the default): nothing starts.
    const task = await createTask(token, ws, { title: "waits", status: "todo" });
    const blocker = await createTask(token, ws, { title: "gate", status: "todo" });
    await block(task.id, blocker.id);
    expect((await call("POST", `${base()}/tasks/${blocker.id}/move`, { token, json: { column: "done" } })).status).toBe(200);
    expect((await call("GET", `${base()}/tasks/${task.id}/runs`, { token })).body).toEqual([]);
  });
});
