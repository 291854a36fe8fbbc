import { beforeAll, describe, expect, it } from "vitest";
import { call, newUser, newWorkspace, onlyError, uniqueName } from "../helpers/api";
import { createTask } from "../helpers/tasks";

const QUESTION_KEYS = [
  "answer",
  "answered_at",
  "answered_by",
  "answered_via",
  "execution_id",
  "content",
  "context",
  "created_at",
  "id",
  "options",
  "priority",
  "status",
  "task_id",
  "task_title",
  "workspace_id",
].sort();

let owner: Awaited<ReturnType<typeof newUser>>;
let ws: { id: string };
let task: { id: string; title: string };
const base = () => `/api/workspaces/${ws.id}/questions`;

beforeAll(async () => {
  owner = await newUser();
  ws = await newWorkspace(owner.token);
  task = await createTask(owner.token, ws.id, { title: uniqueName("task") });
});

const create = (json: unknown, token = owner.token) => call("POST", base(), { token, json });

describe("POST /api/workspaces/{id}/questions", () => {
  it("creates a question with every default", async () => {
    const res = await create({ content: "Which database?", task_id: task.id });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(QUESTION_KEYS);
    expect(res.body).toMatchObject({
      workspace_id: ws.id,
      task_id: task.id,
      task_title: task.title,
      content: "Which database?",
      context: null,
      options: null,
      answer: null,
      status: "open",
      priority: 2,
      answered_at: null,
      answered_by: null,
    });
    expect(typeof res.body.id).toBe("string");
    expect(new Date(res.body.created_at).toISOString()).toBe(res.body.created_at);
  });

  it("keeps context, 4 options and priority", async () => {
    const res = await create({ content: "Pick one", task_id: task.id, context: "ctx", options: ["a", "b", "c", "d"], priority: 0 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ context: "ctx", options: ["a", "b", "c", "d"], priority: 0 });
  });

  it.each([
    [{ task_id: "x" }, ["body", "content"], "missing"],
    [{ content: "q" }, ["body", "task_id"], "missing"],
    [{ content: "", task_id: "x" }, ["body", "content"], "string_too_short"],
    [{ content: 5, task_id: "x" }, ["body", "content"], "string_type"],
    [{ content: "q", task_id: "x", options: ["1", "2", "3", "4", "5"] }, ["body", "options"], "too_long"],
    [{ content: "q", task_id: "x", options: [] }, ["body", "options"], "too_short"],
    [{ content: "q", task_id: "x", options: ["ok", ""] }, ["body", "options", 1], "string_too_short"],
    [{ content: "q", task_id: "x", options: "a" }, ["body", "options"], "list_type"],
    [{ content: "q", task_id: "x", priority: 5 }, ["body", "priority"], "less_than_equal"],
    [{ content: "q", task_id: "x", priority: -1 }, ["body", "priority"], "greater_than_equal"],
    [{ content: "q", task_id: "x", priority: 1.5 }, ["body", "priority"], "int_from_float"],
    [{ content: "q", task_id: "x", priority: "1" }, ["body", "priority"], "int_type"],
    [["not", "an", "object"], ["body"], "model_attributes_type"],
  ])("422 for %j at %j (%s)", async (json, loc, type) => {
    const res = await create(json);
    expect(res.status).toBe(422);
    expect(onlyError(res.body)).toEqual({ loc, type });
  });

  it("422 json_invalid for malformed JSON", async () => {
    const res = await call("POST", base(), { token: owner.token, body: "{oops", headers: { "content-type": "application/json" } });
    expect(res.status).toBe(422);
    expect(res.body.detail[0].type).toBe("json_invalid");
  });

  it("404 for a task that does not exist or belongs to another workspace", async () => {
    const missing = await create({ content: "q", task_id: "no-such-task" });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: "Task not found" });
    const otherWs = await newWorkspace(owner.token);
    const foreign = await createTask(owner.token, otherWs.id, { title: uniqueName("task") });
    const res = await create({ content: "q", task_id: foreign.id });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: "Task not found" });
  });

  it("401 without a token", async () => {
    const res = await call("POST", base(), { json: { content: "q", task_id: task.id } });
    expect(res.status).toBe(401);
  });
});

describe("GET /api/workspaces/{id}/questions", () => {
  it("orders open first, then priority, then newest; filters by status and task", async () => {
    const own = await newWorkspace(owner.token);
    const t1 = await createTask(owner.token, own.id, { title: uniqueName("task") });
    const t2 = await createTask(owner.token, own.id, { title: uniqueName("task") });
    const url = `/api/workspaces/${own.id}/questions`;
    const make = async (content: string, priority: number, taskId = t1.id) =>
      (await call("POST", url, { token: owner.token, json: { content, task_id: taskId, priority } })).body.id as string;
    const lowOld = await make("low old", 3);
    const urgent = await make("urgent", 0);
    const lowNew = await make("low new", 3, t2.id);
    const answered = await make("answered", 0);
    expect((await call("POST", `${url}/${answered}/answer`, { token: owner.token, json: { answer: "yes" } })).status).toBe(200);

    const all = await call("GET", url, { token: owner.token });
    expect(all.status).toBe(200);
    expect(all.body.map((q: { id: string }) => q.id)).toEqual([urgent, lowNew, lowOld, answered]);

    const open = await call("GET", `${url}?status=open`, { token: owner.token });
    expect(open.body.map((q: { id: string }) => q.id)).toEqual([urgent, lowNew, lowOld]);
    const done = await call("GET", `${url}?status=answered`, { token: owner.token });
    expect(done.body.map((q: { id: string }) => q.id)).toEqual([answered]);
    const byTask = await call("GET", `${url}?task_id=${t2.id}`, { token: owner.token });
    expect(byTask.body.map((q: { id: string }) => q.id)).toEqual([lowNew]);
    expect(byTask.body[0].task_title).toBe(t2.title);
    const limited = await call("GET", `${url}?limit=2`, { token: owner.token });
    expect(limited.body.map((q: { id: string }) => q.id)).toEqual([urgent, lowNew]);
  });

  it("lists the answered ones newest answer first, a page at a time after `before`", async () => {
    const own = await newWorkspace(owner.token);
    const t = await createTask(owner.token, own.id, { title: uniqueName("task") });
    const url = `/api/workspaces/${own.id}/questions`;
    const ids: string[] = [];
    for (const content of ["first", "second", "third", "fourth", "fifth"]) {
      const id = (await call("POST", url, { token: owner.token, json: { content, task_id: t.id } })).body.id as string;
      ids.push(id);
    }
    // Answered in another order than asked: the list follows the answers.
    for (const id of [ids[2], ids[0], ids[4], ids[1]])
      expect((await call("POST", `${url}/${id}/answer`, { token: owner.token, json: { answer: "ok" } })).status).toBe(200);
    const page = (qs: string) => call("GET", `${url}?status=answered&limit=2${qs}`, { token: owner.token });
    const first = await page("");
    expect(first.body.map((q: { id: string }) => q.id)).toEqual([ids[1], ids[4]]);
    const second = await page(`&before=${ids[4]}`);
    expect(second.body.map((q: { id: string }) => q.id)).toEqual([ids[0], ids[2]]);
    expect((await page(`&before=${ids[2]}`)).body).toEqual([]);

    // `before` pages the answered list only; a question of another workspace is not found.
    const open = await call("GET", `${url}?before=${ids[4]}`, { token: owner.token });
    expect(open.status).toBe(422);
    expect(onlyError(open.body)).toEqual({ loc: ["query", "before"], type: "value_error" });
    const other = await newWorkspace(owner.token);
    const foreign = await call("GET", `/api/workspaces/${other.id}/questions?status=answered&before=${ids[4]}`, { token: owner.token });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ detail: "Question not found" });
    // An open question is no page boundary of the answered list.
    expect((await page(`&before=${ids[3]}`)).status).toBe(404);
  });

  it.each([
    ["limit=0", ["query", "limit"], "greater_than_equal"],
    ["limit=501", ["query", "limit"], "less_than_equal"],
    ["limit=many", ["query", "limit"], "int_parsing"],
    ["status=closed", ["query", "status"], "enum"],
  ])("422 for ?%s", async (qs, loc, type) => {
    const res = await call("GET", `${base()}?${qs}`, { token: owner.token });
    expect(res.status).toBe(422);
    expect(onlyError(res.body)).toEqual({ loc, type });
  });
});

describe("POST /api/workspaces/{id}/questions/{question_id}/answer", () => {
  it("answers once; a second answer is 409", async () => {
    const q = (await create({ content: "answer me", task_id: task.id })).body;
    const res = await call("POST", `${base()}/${q.id}/answer`, { token: owner.token, json: { answer: "42" } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(QUESTION_KEYS);
    expect(res.body).toMatchObject({ id: q.id, answer: "42", status: "answered", task_title: task.title, answered_by: owner.id });
    expect(new Date(res.body.answered_at).toISOString()).toBe(res.body.answered_at);
    const again = await call("POST", `${base()}/${q.id}/answer`, { token: owner.token, json: { answer: "43" } });
    expect(again.status).toBe(409);
    expect(typeof again.body.detail).toBe("string");
  });

  it("records who answered: in the answer, the list and the task's record", async () => {
    const member = await newUser();
    expect(
      (await call("POST", `/api/workspaces/${ws.id}/members`, { token: owner.token, json: { username: member.username } })).status,
    ).toBe(201);
    const q = (await create({ content: "who answers?", task_id: task.id })).body;
    expect((await call("GET", `/api/workspaces/${ws.id}/tasks/${task.id}`, { token: owner.token })).body.questions).toContainEqual(
      expect.objectContaining({ id: q.id, answered_by: null }),
    );
    const answered = await call("POST", `${base()}/${q.id}/answer`, { token: member.token, json: { answer: "I do" } });
    expect(answered.body).toMatchObject({ status: "answered", answered_by: member.id });
    const listed = await call("GET", `${base()}?task_id=${task.id}&status=answered`, { token: owner.token });
    expect(listed.body.find((x: { id: string }) => x.id === q.id)).toMatchObject({ answer: "I do", answered_by: member.id });
  });

  it("of two concurrent answers exactly one wins", async () => {
    const q = (await create({ content: "race", task_id: task.id })).body;
    const results = await Promise.all(
      ["a", "b"].map((answer) => call("POST", `${base()}/${q.id}/answer`, { token: owner.token, json: { answer } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it("422 for a missing or empty answer, 404 for an unknown question", async () => {
    const q = (await create({ content: "v", task_id: task.id })).body;
    const missing = await call("POST", `${base()}/${q.id}/answer`, { token: owner.token, json: {} });
    expect(missing.status).toBe(422);
    expect(onlyError(missing.body)).toEqual({ loc: ["body", "answer"], type: "missing" });
    const empty = await call("POST", `${base()}/${q.id}/answer`, { token: owner.token, json: { answer: "  " } });
    expect(empty.status).toBe(422);
    expect(onlyError(empty.body)).toEqual({ loc: ["body", "answer"], type: "string_too_short" });
    const unknown = await call("POST", `${base()}/nope/answer`, { token: owner.token, json: { answer: "x" } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: "Question not found" });
  });
});

describe("DELETE /api/workspaces/{id}/questions/{question_id}", () => {
  it("deletes with 204, then 404", async () => {
    const q = (await create({ content: "bye", task_id: task.id })).body;
    const res = await call("DELETE", `${base()}/${q.id}`, { token: owner.token });
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
    const list = await call("GET", base(), { token: owner.token });
    expect(list.body.some((item: { id: string }) => item.id === q.id)).toBe(false);
    const again = await call("DELETE", `${base()}/${q.id}`, { token: owner.token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ detail: "Question not found" });
  });
});

describe("workspace isolation", () => {
  it("a non-member gets 404 on every question route, and cannot touch the workspace's questions", async () => {
    const q = (await create({ content: "private", task_id: task.id })).body;
    const outsider = await newUser();
    const requests: [string, string, unknown?][] = [
      ["GET", base()],
      ["POST", base(), { content: "x", task_id: task.id }],
      ["DELETE", `${base()}/${q.id}`],
      ["POST", `${base()}/${q.id}/answer`, { answer: "x" }],
    ];
    for (const [method, path, json] of requests) {
      const res = await call(method, path, { token: outsider.token, json });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body).toEqual({ detail: "Workspace not found" });
    }
    // Through the outsider's own workspace, the ids are still unknown.
    const own = await newWorkspace(outsider.token);
    const viaOwn = await call("DELETE", `/api/workspaces/${own.id}/questions/${q.id}`, { token: outsider.token });
    expect(viaOwn.status).toBe(404);
    expect(viaOwn.body).toEqual({ detail: "Question not found" });
    const still = await call("GET", `${base()}?status=open`, { token: owner.token });
    expect(still.body.find((item: { id: string }) => item.id === q.id)).toMatchObject({ status: "open" });
  });
});
