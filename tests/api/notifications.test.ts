import { beforeAll, describe, expect, it } from "vitest";
import { call, newUser, newWorkspace } from "../helpers/api";
import { createTask } from "../helpers/tasks";
import { eventually } from "../helpers/engine";

// Notifications (issue #38, docs/notifications.md) on the shared server: who hears a question (the
// assignees, else the owners; never a viewer), a mention, an assignment; the inbox's paging and
// read marks; credentials; preferences; escalation; and answers recording their channel. Writes
// are sent with `Prefer: wait=reactions` (tests/helpers/api.ts), so the notify reactions have run
// when they answer. Runs, permission questions and a restart: notifications-engine.test.ts.

type User = Awaited<ReturnType<typeof newUser>>;
let owner: User;
let member: User;
let viewer: User;
let stranger: User;
let ws: string;

const inbox = async (user: User, query = "") => {
  const response = await call("GET", `/api/me/notifications${query}`, { token: user.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body as {
    items: {
      id: string;
      kind: string;
      title: string;
      body: string;
      task_id: string;
      question_id: string | null;
      read_at: string | null;
      question: unknown;
    }[];
    total: number;
    unread: number;
  };
};
const about = async (user: User, taskId: string) => (await inbox(user, "?limit=100")).items.filter((n) => n.task_id === taskId);

async function join(workspace: string, user: User, role: string) {
  expect(
    (await call("POST", `/api/workspaces/${workspace}/members`, { token: owner.token, json: { username: user.username, role } })).status,
  ).toBe(201);
}

const ask = async (taskId: string, json: Record<string, unknown> = {}, workspace = ws) => {
  const asked = await call("POST", `/api/workspaces/${workspace}/questions`, {
    token: owner.token,
    json: { task_id: taskId, content: "Which database?", options: ["PostgreSQL", "SQLite"], ...json },
  });
  expect(asked.status, JSON.stringify(asked.body)).toBe(201);
  return asked.body as { id: string };
};

beforeAll(async () => {
  [owner, member, viewer, stranger] = await Promise.all([newUser(), newUser(), newUser(), newUser()]);
  ws = (await newWorkspace(owner.token)).id;
  await join(ws, member, "member");
  await join(ws, viewer, "viewer");
});

describe("who hears a question", () => {
  it("the task's assignees who may answer; a viewer assigned to it never", async () => {
    const task = await createTask(owner.token, ws, {
      assignees: [
        { kind: "user", id: member.id },
        { kind: "user", id: viewer.id },
      ],
    });
    const question = await ask(task.id);
    const heard = await about(member, task.id);
    expect(heard.filter((n) => n.kind === "question")).toEqual([
      expect.objectContaining({
        kind: "question",
        question_id: question.id,
        body: "Which database?",
        read_at: null,
        title: expect.stringMatching(/^Question on "/),
      }),
    ]);
    expect(heard.find((n) => n.kind === "question")?.question).toEqual({ status: "open", options: ["PostgreSQL", "SQLite"], answer: null });
    expect((await about(viewer, task.id)).filter((n) => n.kind === "question")).toEqual([]);
    // The owner is not assigned: the assignees hear it, not the owners.
    expect((await about(owner, task.id)).filter((n) => n.kind === "question")).toEqual([]);
  });

  it("with no assignee, the workspace's owners only", async () => {
    const task = await createTask(owner.token, ws);
    await ask(task.id);
    expect((await about(owner, task.id)).map((n) => n.kind)).toEqual(["question"]);
    expect(await about(member, task.id)).toEqual([]);
    expect(await about(viewer, task.id)).toEqual([]);
    expect(await about(stranger, task.id)).toEqual([]);
  });
});

describe("watching a workspace", () => {
  it("a member who watches hears every question, besides the assignees; stopping ends it", async () => {
    const watched = (await newWorkspace(owner.token)).id;
    await join(watched, member, "member");
    await join(watched, viewer, "viewer");
    const watch = (user: User, json?: unknown) =>
      call(json ? "PUT" : "GET", `/api/workspaces/${watched}/watch`, { token: user.token, ...(json ? { json } : {}) });
    expect([(await watch(member)).status, (await watch(member)).body]).toEqual([200, { watching: false }]);
    expect((await watch(member, { watching: true })).body).toEqual({ watching: true });
    expect((await watch(member)).body).toEqual({ watching: true });

    // Assigned to the owner: the owner hears it as its assignee, the member as a watcher.
    const task = await createTask(owner.token, watched, { assignees: [{ kind: "user", id: owner.id }] });
    const question = await ask(task.id, {}, watched);
    expect((await about(member, task.id)).filter((n) => n.kind === "question").map((n) => n.question_id)).toEqual([question.id]);
    expect((await about(owner, task.id)).filter((n) => n.kind === "question").map((n) => n.question_id)).toEqual([question.id]);

    expect((await watch(member, { watching: false })).body).toEqual({ watching: false });
    const later = await createTask(owner.token, watched, { assignees: [{ kind: "user", id: owner.id }] });
    await ask(later.id, {}, watched);
    expect(await about(member, later.id)).toEqual([]);
  });

  it("refuses a viewer in words, bad input with 422, and a stranger or no credentials", async () => {
    const viewerWatch = await call("PUT", `/api/workspaces/${ws}/watch`, { token: viewer.token, json: { watching: true } });
    expect([viewerWatch.status, viewerWatch.body.detail]).toEqual([
      403,
      expect.stringMatching(/^Viewers can read this workspace but not change it/),
    ]);
    const bad = await call("PUT", `/api/workspaces/${ws}/watch`, { token: member.token, json: { watching: "yes" } });
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ loc: ["body", "watching"] });
    expect((await call("PUT", `/api/workspaces/${ws}/watch`, { token: stranger.token, json: { watching: true } })).status).toBe(404);
    expect((await call("GET", `/api/workspaces/${ws}/watch`)).status).toBe(401);
    expect((await call("GET", `/api/workspaces/${ws}/watch`, { token: "not-a-token" })).status).toBe(401);
  });
});

describe("mentions and assignments", () => {
  it("a comment's mention notifies the member named, not its author", async () => {
    const task = await createTask(owner.token, ws);
    const posted = await call("POST", `/api/workspaces/${ws}/tasks/${task.id}/comments`, {
      token: owner.token,
      json: { body: `@${member.username} and @${owner.username}, please look` },
    });
    expect(posted.status).toBe(201);
    expect((await about(member, task.id)).map((n) => [n.kind, n.body])).toEqual([
      ["mention", `@${member.username} and @${owner.username}, please look`],
    ]);
    expect(await about(owner, task.id)).toEqual([]);
  });

  it("an assignment notifies the person newly assigned, once, and not the one who assigned themselves", async () => {
    const task = await createTask(owner.token, ws, { assignees: [{ kind: "user", id: owner.id }] });
    expect(await about(owner, task.id)).toEqual([]);
    const patch = (assignees: unknown) =>
      call("PATCH", `/api/workspaces/${ws}/tasks/${task.id}`, { token: owner.token, json: { assignees } });
    expect(
      (
        await patch([
          { kind: "user", id: owner.id },
          { kind: "user", id: member.id },
        ])
      ).status,
    ).toBe(200);
    expect(
      (
        await patch([
          { kind: "user", id: member.id },
          { kind: "user", id: owner.id },
        ])
      ).status,
    ).toBe(200);
    expect((await call("PATCH", `/api/workspaces/${ws}/tasks/${task.id}`, { token: owner.token, json: { title: "renamed" } })).status).toBe(
      200,
    );
    const heard = await about(member, task.id);
    expect(heard.map((n) => n.kind)).toEqual(["assignment"]);
    expect(heard[0].title).toContain(owner.username);
  });
});

describe("escalation", () => {
  it("a question unanswered past the workspace's time reaches every owner and member, once, never a viewer", async () => {
    const own = (await newWorkspace(owner.token)).id;
    await join(own, member, "member");
    await join(own, viewer, "viewer");
    const refused = await call("PATCH", `/api/workspaces/${own}`, { token: owner.token, json: { question_escalation_minutes: -1 } });
    expect(refused.status).toBe(422);
    const set = await call("PATCH", `/api/workspaces/${own}`, { token: owner.token, json: { question_escalation_minutes: 0 } });
    expect(set.body.question_escalation_minutes).toBe(0);
    const task = await createTask(owner.token, own, { assignees: [{ kind: "user", id: owner.id }] });
    const question = await ask(task.id, {}, own);
    const escalated = (n: { title: string; question_id: string | null }) =>
      n.question_id === question.id && n.title.startsWith("Still unanswered");
    await eventually(async () => ((await about(member, task.id)).some(escalated) ? true : undefined), 15_000, "the escalation");
    expect((await about(owner, task.id)).filter(escalated)).toHaveLength(1);
    expect((await about(member, task.id)).filter(escalated)).toHaveLength(1);
    expect(await about(viewer, task.id)).toEqual([]);
  });
});

describe("answers record their channel", () => {
  it("an API credential's answer is via api, and a second answer is 409 naming who and where", async () => {
    const task = await createTask(owner.token, ws);
    const question = await ask(task.id);
    const answered = await call("POST", `/api/workspaces/${ws}/questions/${question.id}/answer`, {
      token: member.token,
      json: { answer: "SQLite" },
    });
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ status: "answered", answered_by: member.id, answered_via: "api" });
    const again = await call("POST", `/api/workspaces/${ws}/questions/${question.id}/answer`, {
      token: owner.token,
      json: { answer: "PostgreSQL" },
    });
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe(`Question is already answered by ${member.username} via api`);
    const listed = await call("GET", `/api/workspaces/${ws}/questions?status=answered`, { token: owner.token });
    expect(listed.body.find((q: { id: string }) => q.id === question.id)).toMatchObject({ answered_via: "api" });
    // The inbox shows it answered now.
    expect((await about(owner, task.id)).find((n) => n.kind === "question")?.question).toEqual({
      status: "answered",
      options: ["PostgreSQL", "SQLite"],
      answer: "SQLite",
    });
  });
});
