import { beforeAll, describe, expect, it } from "vitest";
import { call, newUser, newWorkspace, uniqueName } from "../helpers/api";
import { createTask } from "../helpers/tasks";

// Where an assignment lives on after it was made (issue #37): an agent assigned in Backlog starts
// when its task enters To do or In progress (once per assignment); a member removed from the
// workspace leaves their tasks, with the change in each task's activity; an `@agent` inside
// Markdown code names no one. The profiles carry a label no runner has: a run is counted, never run.

let token: string;
let ws: string;
let me: { id: string; username: string };

const base = () => `/api/workspaces/${ws}`;
const runsOf = async (taskId: string) =>
  (await call("GET", `${base()}/tasks/${taskId}/runs`, { token })).body as { execution_id: string; trigger: string; agent_id: string }[];
const move = (taskId: string, column: string) => call("POST", `${base()}/tasks/${taskId}/move`, { token, json: { column } });

async function profile(name = uniqueName("agent")) {
  const created = await call("POST", `${base()}/agents`, {
    token,
    json: { name, kind: "command", command: "/bin/true", labels: ["lifecycle-only"] },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { id: created.body.id as string, name };
}

beforeAll(async () => {
  const owner = await newUser({ isAdmin: true });
  token = owner.token;
  me = { id: owner.id, username: owner.username };
  ws = (await newWorkspace(token)).id;
});

describe("an agent assigned in Backlog", () => {
  it("starts once when its task is moved to To do, and not again on a move back and forth", async () => {
    const agent = await profile();
    const task = await createTask(token, ws, { assignees: [{ kind: "agent", id: agent.id }] });
    expect(await runsOf(task.id)).toEqual([]);
    expect((await move(task.id, "todo")).status).toBe(200);
    const runs = await runsOf(task.id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ trigger: "assigned", agent_id: agent.id });
    await call("POST", `${base()}/executions/${runs[0].execution_id}/cancel`, { token });
    expect((await move(task.id, "backlog")).status).toBe(200);
    expect((await move(task.id, "in_progress")).status).toBe(200);
    expect(await runsOf(task.id)).toHaveLength(1);
  });

  it("starts when a PATCH moves its task to In progress; a move within the columns starts nothing", async () => {
    const agent = await profile();
    const task = await createTask(token, ws, { status: "in_review", assignees: [{ kind: "agent", id: agent.id }] });
    expect((await call("PATCH", `${base()}/tasks/${task.id}`, { token, json: { status: "in_progress" } })).status).toBe(200);
    expect((await runsOf(task.id)).map((run) => run.trigger)).toEqual(["assigned"]);
    const other = await createTask(token, ws, { status: "todo" });
    expect((await move(other.id, "in_progress")).status).toBe(200);
    expect(await runsOf(other.id)).toEqual([]);
  });
});

describe("removing a member", () => {
  it("removes their assignments in the workspace and says so in each task's activity", async () => {
    const member = await newUser();
    expect((await call("POST", `${base()}/members`, { token, json: { username: member.username } })).status).toBe(201);
    const both = [
      { kind: "user", id: me.id },
      { kind: "user", id: member.id },
    ];
    const first = await createTask(token, ws, { assignees: both });
    const second = await createTask(token, ws, { assignees: [{ kind: "user", id: member.id }] });
    const removed = await call("DELETE", `${base()}/members/${member.id}`, { token });
    expect(removed.status).toBe(204);
    expect((await call("GET", `${base()}/tasks/${first.id}`, { token })).body.assignees).toEqual([
      { kind: "user", id: me.id, name: me.username },
    ]);
    expect((await call("GET", `${base()}/tasks/${second.id}`, { token })).body.assignees).toEqual([]);
    const activity = await call("GET", `${base()}/tasks/${second.id}/activity`, { token });
    expect(activity.body.items[0].summary).toBe(`Unassigned ${member.username}`);
    const board = await call("GET", `${base()}/board?assignee=${member.id}`, { token });
    expect(board.status).toBe(200);
    expect((board.body.columns as { items: unknown[] }[]).flatMap((column) => column.items)).toEqual([]);
  });
});

describe("mentions in Markdown code", () => {
  it("name no one and start nothing; the same name outside code does", async () => {
    const agent = await profile(uniqueName("coder"));
    const task = await createTask(token, ws);
    const comments = `${base()}/tasks/${task.id}/comments`;
    const quoted = await call("POST", comments, {
      token,
      json: { body: `Run \`@${agent.name}\` like this:\n\n\`\`\`\n@${agent.name} fix it\n@${me.username}\n\`\`\`` },
    });
    expect(quoted.status).toBe(201);
    expect(quoted.body.mentions).toEqual([]);
    expect(await runsOf(task.id)).toEqual([]);
    const plain = await call("POST", comments, { token, json: { body: `\`code\` then @${agent.name} and @${me.username}` } });
    expect(plain.body.mentions).toEqual([me.id]);
    expect((await runsOf(task.id)).map((run) => run.trigger)).toEqual(["mentioned"]);
  });
});
