import { beforeAll, describe, expect, it } from "vitest";
import { call, newUser, newWorkspace } from "../helpers/api";
import { createTask } from "../helpers/tasks";

// Tasks are numbered per workspace like issues (#1, #2 …): in creation order, never reused, whatever
// the path that creates them; and a task names the git branch agents work on.

let owner: Awaited<ReturnType<typeof newUser>>;
beforeAll(async () => {
  owner = await newUser();
});

describe("task numbers", () => {
  it("count 1, 2, 3 per workspace in creation order and are never given again", async () => {
    const a = await newWorkspace(owner.token);
    const b = await newWorkspace(owner.token);
    const first = await createTask(owner.token, a.id, { title: "one" });
    const second = await createTask(owner.token, a.id, { title: "two", status: "done" });
    const other = await createTask(owner.token, b.id, { title: "elsewhere" });
    expect([first.number, second.number, other.number]).toEqual([1, 2, 1]);

    expect((await call("DELETE", `/api/workspaces/${a.id}/tasks/${second.id}`, { token: owner.token })).status).toBe(204);
    const third = await createTask(owner.token, a.id, { title: "three" });
    expect(third.number).toBe(3);
    const read = await call("GET", `/api/workspaces/${a.id}/tasks/${first.id}`, { token: owner.token });
    expect(read.body).toMatchObject({ number: 1, branch: null });
  });

  it("are unique under concurrent creates in several columns", async () => {
    const ws = await newWorkspace(owner.token);
    const columns = ["backlog", "todo", "in_progress", "in_review", "done"];
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, i) => createTask(owner.token, ws.id, { title: `t${i}`, status: columns[i % columns.length] })),
    );
    expect(created.map((task) => task.number).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });
});

describe("task branch", () => {
  it("is set with PATCH for a PR branch made elsewhere, and cleared with null", async () => {
    const ws = await newWorkspace(owner.token);
    const task = await createTask(owner.token, ws.id);
    const url = `/api/workspaces/${ws.id}/tasks/${task.id}`;
    const set = await call("PATCH", url, { token: owner.token, json: { branch: "feature/login-fix" } });
    expect(set.status).toBe(200);
    expect(set.body.branch).toBe("feature/login-fix");
    for (const branch of ["-rf", "a..b", "a b", "x/", "a@{1}", "", "x".repeat(201)]) {
      const bad = await call("PATCH", url, { token: owner.token, json: { branch } });
      expect(bad.status, branch).toBe(422);
      expect(bad.body.detail[0].loc).toEqual(["body", "branch"]);
    }
    const cleared = await call("PATCH", url, { token: owner.token, json: { branch: null } });
    expect(cleared.body.branch).toBeNull();
  });
});
