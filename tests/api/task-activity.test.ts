import { beforeAll, describe, expect, it } from "vitest";
import { call, newUser, newWorkspace, userWithWorkspace } from "../helpers/api";
import { setBlocker } from "../helpers/dependencies";
import { createTask } from "../helpers/tasks";

// A task's activity, read from the event log: who created, edited, moved it, its dependency changes.

const made = userWithWorkspace();
let owner: Awaited<ReturnType<typeof newUser>>;
let token: string;
let ws: string;
beforeAll(() => ({ owner, token, ws } = made));

const base = () => `/api/workspaces/${ws}`;
const block = (taskId: string, blockerId: string) => setBlocker("POST", ws, taskId, blockerId, token);
const unblock = (taskId: string, blockerId: string) => setBlocker("DELETE", ws, taskId, blockerId, token);

describe("a task's activity", () => {
  it("lists who created, edited, moved it and its dependency changes, newest first, paged", async () => {
    const task = await createTask(token, ws, { title: "documented", status: "backlog" });
    const blocker = await createTask(token, ws, { title: "prerequisite" });
    expect((await call("PATCH", `${base()}/tasks/${task.id}`, { token, json: { title: "documented well", priority: "p1" } })).status).toBe(
      200,
    );
    expect((await call("POST", `${base()}/tasks/${task.id}/move`, { token, json: { column: "in_progress" } })).status).toBe(200);
    await block(task.id, blocker.id);
    await unblock(task.id, blocker.id);
    const question = await call("POST", `${base()}/questions`, { token, json: { task_id: task.id, content: "Which colour?" } });
    await call("POST", `${base()}/questions/${question.body.id}/answer`, { token, json: { answer: "blue" } });

    const all = await call("GET", `${base()}/tasks/${task.id}/activity?limit=100`, { token });
    expect(all.status).toBe(200);
    expect(all.body.next_before).toBeNull();
    expect(all.body.items.map((item: { summary: string }) => item.summary)).toEqual([
      "Answered “blue” to: Which colour?",
      "Asked: Which colour?",
      `No longer blocked by #${blocker.number} “prerequisite”`,
      `Now blocked by #${blocker.number} “prerequisite”`,
      "Moved to In progress",
      "Changed title, priority",
      "Created the task in Backlog",
    ]);
    const actor = { kind: "user", id: owner.id, name: owner.username };
    for (const item of all.body.items) expect(item.actor).toEqual(actor);
    expect(all.body.items[6]).toMatchObject({ type: "task.created", data: { id: task.id } });
    const blockerActivity = await call("GET", `${base()}/tasks/${blocker.id}/activity`, { token });
    expect(blockerActivity.body.items[0].summary).toBe(`No longer blocks #${task.number} “documented well”`);

    // Pages of 3 walk the same list with no gap and no repeat.
    const seen: string[] = [];
    let before: string | null = null;
    let pages = 0;
    do {
      const page: { status: number; body: { items: { id: string }[]; next_before: string | null } } = await call(
        "GET",
        `${base()}/tasks/${task.id}/activity?limit=3${before ? `&before=${before}` : ""}`,
        { token },
      );
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(3);
      seen.push(...page.body.items.map((item) => item.id));
      before = page.body.next_before;
      pages++;
    } while (before);
    expect(pages).toBe(3);
    expect(seen).toEqual(all.body.items.map((item: { id: string }) => item.id));
  });

  it("rejects a bad cursor or limit with 422, and answers 404 for a task of another workspace", async () => {
    const task = await createTask(token, ws, { title: "checked" });
    for (const query of ["before=abc", "limit=0", "limit=101", "before=-1"]) {
      const response = await call("GET", `${base()}/tasks/${task.id}/activity?${query}`, { token });
      expect({ query, status: response.status }).toEqual({ query, status: 422 });
    }
    const otherWs = (await newWorkspace(token)).id;
    const elsewhere = await createTask(token, otherWs, { title: "there" });
    expect((await call("GET", `${base()}/tasks/${elsewhere.id}/activity`, { token })).status).toBe(404);
  });
});
