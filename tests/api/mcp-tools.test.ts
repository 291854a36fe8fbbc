import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { beforeAll, describe, expect, it } from "vitest";
import { openStream } from "../helpers/sse";
import { eventually, fixtureAgentWorkspace, outputLines } from "../helpers/engine";
import { data, mcpConnector, newApiKey as createApiKey, tool } from "../helpers/mcp";

// The MCP server's tools (POST /api/mcp) through the SDK's own client, on the shared server, in a workspace whose
// default agent is the test fixture (start_run, and a live agent token to act with). Errors, resources and authentication,
// which need no agent, are in mcp-protocol.test.ts on the shared server.

let server: Awaited<ReturnType<typeof fixtureAgentWorkspace>>["server"];
let token: string;
let username: string;
let wsId: string;
let apiKey: string;
let owner: Client;

beforeAll(async () => {
  ({ server, token, username, wsId } = await fixtureAgentWorkspace());
  apiKey = (await newApiKey(token)).key;
  owner = await connect(apiKey);
});

const connect = mcpConnector(() => server.url);
const newApiKey = (bearer: string) => createApiKey(server.call, bearer);

describe("MCP server: tools", () => {
  it("lists its tools with the HTTP API's argument names, and its resource templates", async () => {
    const { tools } = await owner.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      [
        "ask_question",
        "comment_on_task",
        "create_task",
        "get_answer",
        "get_run_log",
        "get_task",
        "list_projects",
        "list_tasks",
        "list_workspaces",
        "move_task",
        "start_run",
        "update_task",
      ].sort(),
    );
    const readOnly = tools.filter((tool) => tool.annotations?.readOnlyHint).map((tool) => tool.name);
    expect(readOnly.sort()).toEqual(["get_answer", "get_run_log", "get_task", "list_projects", "list_tasks", "list_workspaces"]);
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool.inputSchema]));
    expect(Object.keys(byName.create_task.properties!)).toEqual(
      expect.arrayContaining(["workspace_id", "title", "description", "status", "priority", "project_id"]),
    );
    expect(byName.create_task.required).toEqual(["title"]);
    expect(Object.keys(byName.list_tasks.properties!).sort()).toEqual([
      "column",
      "limit",
      "offset",
      "project_id",
      "search",
      "workspace_id",
    ]);
    expect(byName.move_task.required?.sort()).toEqual(["column", "task_id"]);
    expect(Object.keys(byName.ask_question.properties!)).toEqual(expect.arrayContaining(["task_id", "content", "options", "wait_seconds"]));

    // Every tool publishes what it returns; the SDK client checks each later call's structured
    // content against it. A nullable field has one form everywhere: a type list with "null".
    for (const listed of tools) expect([listed.name, listed.outputSchema?.type]).toEqual([listed.name, "object"]);
    const outputs = Object.fromEntries(tools.map((listed) => [listed.name, listed.outputSchema!]));
    expect(Object.keys(outputs.list_workspaces.properties!)).toEqual(["workspaces"]);
    expect(outputs.get_task.properties!.due_at).toMatchObject({ type: ["string", "null"] });
    expect(byName.update_task.properties!.pr_url).toMatchObject({ type: ["string", "null"], format: "uri" });
    expect(JSON.stringify(tools)).not.toContain('{"type":"null"}');

    const { resourceTemplates } = await owner.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate).sort()).toEqual([
      "taskboard://workspaces/{workspace_id}/board",
      "taskboard://workspaces/{workspace_id}/tasks/{task_id}",
    ]);
  });

  it("lists the caller's workspaces", async () => {
    const { workspaces } = data(await tool(owner, "list_workspaces", {}));
    expect(workspaces).toEqual([expect.objectContaining({ id: wsId, role: "owner" })]);
  });

  it("creates a task that the HTTP API then sees, and gets, updates, moves and lists it", async () => {
    const project = await server.call("POST", `/api/workspaces/${wsId}/projects`, {
      token,
      json: { name: "MCP project", phases: ["one"] },
    });
    const created = data(
      await tool(owner, "create_task", {
        workspace_id: wsId,
        title: "Written by an agent",
        description: "through MCP",
        status: "todo",
        priority: "p1",
        project_id: project.body.id,
      }),
    );
    expect(created).toMatchObject({ title: "Written by an agent", status: "todo", priority: "p1", project_name: "MCP project" });
    const overHttp = await server.call("GET", `/api/workspaces/${wsId}/tasks/${created.id}`, { token });
    expect(overHttp.status).toBe(200);
    expect(overHttp.body).toMatchObject({ id: created.id, description: "through MCP" });

    expect(data(await tool(owner, "get_task", { workspace_id: wsId, task_id: created.id }))).toMatchObject({ id: created.id });
    const updated = data(
      await tool(owner, "update_task", { workspace_id: wsId, task_id: created.id, title: "Renamed by an agent", phase: 1 }),
    );
    expect(updated).toMatchObject({ title: "Renamed by an agent", phase_name: "one", status: "todo" });

    const other = data(await tool(owner, "create_task", { workspace_id: wsId, title: "another one", status: "in_progress" }));
    const moved = data(
      await tool(owner, "move_task", { workspace_id: wsId, task_id: created.id, column: "in_progress", before_id: other.id }),
    );
    expect(moved.status).toBe("in_progress");
    const column = data(await tool(owner, "list_tasks", { workspace_id: wsId, column: "in_progress" }));
    expect(column).toMatchObject({ total: 2, has_more: false });
    expect(column.items.map((t: { id: string }) => t.id)).toEqual([created.id, other.id]);
    // The column read is the HTTP API's own.
    expect(column).toEqual((await server.call("GET", `/api/workspaces/${wsId}/board/column/in_progress`, { token })).body);

    const found = data(await tool(owner, "list_tasks", { workspace_id: wsId, search: "RENAMED BY" }));
    expect(found.items.map((t: { id: string }) => t.id)).toEqual([created.id]);
    const inProject = data(await tool(owner, "list_tasks", { workspace_id: wsId, project_id: project.body.id }));
    expect(inProject.items.map((t: { id: string }) => t.id)).toEqual([created.id]);
    const nothing = data(await tool(owner, "list_tasks", { workspace_id: wsId, search: "no such title" }));
    expect(nothing).toEqual({ items: [], has_more: false });
    const { projects } = data(await tool(owner, "list_projects", { workspace_id: wsId }));
    expect(projects.map((p: { id: string }) => p.id)).toEqual([project.body.id]);
  });

  it("pages list_tasks across columns with search, bounded by limit", async () => {
    const ids = [];
    for (const status of ["backlog", "todo", "done"]) {
      ids.push(data(await tool(owner, "create_task", { workspace_id: wsId, title: `paging needle ${status}`, status })).id);
    }
    await tool(owner, "create_task", { workspace_id: wsId, title: "paging hay", status: "todo" });
    const first = data(await tool(owner, "list_tasks", { workspace_id: wsId, search: "needle", limit: 2 }));
    expect(first.has_more).toBe(true);
    const second = data(await tool(owner, "list_tasks", { workspace_id: wsId, search: "needle", limit: 2, offset: 2 }));
    expect(second.has_more).toBe(false);
    expect([...first.items, ...second.items].map((t: { id: string }) => t.id)).toEqual(ids);
  });

  it("asks a question, answered over the HTTP API, and get_answer returns the answer", async () => {
    const task = data(await tool(owner, "create_task", { workspace_id: wsId, title: "needs a decision" }));
    const asked = data(
      await tool(owner, "ask_question", { workspace_id: wsId, task_id: task.id, content: "Which one?", options: ["A", "B"] }),
    );
    expect(asked).toMatchObject({ task_id: task.id, content: "Which one?", status: "open", answer: null, options: ["A", "B"] });
    expect(data(await tool(owner, "get_answer", { workspace_id: wsId, question_id: asked.id }))).toMatchObject({ status: "open" });

    const answered = await server.call("POST", `/api/workspaces/${wsId}/questions/${asked.id}/answer`, { token, json: { answer: "B" } });
    expect(answered.status).toBe(200);
    expect(data(await tool(owner, "get_answer", { workspace_id: wsId, question_id: asked.id }))).toMatchObject({
      id: asked.id,
      status: "answered",
      answer: "B",
    });
  });

  it("ask_question with wait_seconds returns the answer that arrives while it waits", async () => {
    const task = data(await tool(owner, "create_task", { workspace_id: wsId, title: "waiting for a person" }));
    const pending = tool(owner, "ask_question", { workspace_id: wsId, task_id: task.id, content: "Go ahead?", wait_seconds: 30 });
    const question = await eventually(async () => {
      const open = await server.call("GET", `/api/workspaces/${wsId}/questions?task_id=${task.id}`, { token });
      return open.body[0];
    });
    // Past the waiter's first re-read (5 s after asking), so that only the live event can bring the
    // answer in much less than the 5 s to its next one.
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    const answeredAt = Date.now();
    const answer = await server.call("POST", `/api/workspaces/${wsId}/questions/${question.id}/answer`, { token, json: { answer: "yes" } });
    expect(answer.status).toBe(200);
    expect(data(await pending)).toMatchObject({ id: question.id, status: "answered", answer: "yes" });
    expect(Date.now() - answeredAt).toBeLessThan(2_500);
  });

  it("ask_question returns the open question when nobody answers within wait_seconds", async () => {
    const task = data(await tool(owner, "create_task", { workspace_id: wsId, title: "nobody answers" }));
    const started = Date.now();
    const result = data(await tool(owner, "ask_question", { workspace_id: wsId, task_id: task.id, content: "Anyone?", wait_seconds: 1 }));
    expect(result).toMatchObject({ status: "open", answer: null });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });

  it("starts a run and reads its log", async () => {
    const task = data(await tool(owner, "create_task", { workspace_id: wsId, title: "run me", status: "todo" }));
    const execution = data(await tool(owner, "start_run", { workspace_id: wsId, task_id: task.id, instructions: "succeed" }));
    expect(execution).toMatchObject({ task_id: task.id, workspace_id: wsId });
    const log = await eventually(async () => {
      const page = data(await tool(owner, "get_run_log", { workspace_id: wsId, execution_id: execution.id }));
      return page.complete ? page : undefined;
    }, 20_000);
    expect(log).toMatchObject({ status: "succeeded", offset: 0 });
    expect(outputLines(log)).toContain("working on run me");
  });

  it("refuses start_run on a blocked task, naming the open blocker, unless force", async () => {
    const task = data(await tool(owner, "create_task", { workspace_id: wsId, title: "blocked run", status: "todo" }));
    const blocker = data(await tool(owner, "create_task", { workspace_id: wsId, title: "unfinished", status: "todo" }));
    const added = await server.call("POST", `/api/workspaces/${wsId}/tasks/${task.id}/dependencies/${blocker.id}`, { token });
    expect(added.status).toBe(200);
    const refused = await tool(owner, "start_run", { workspace_id: wsId, task_id: task.id, instructions: "succeed" });
    expect(refused).toMatchObject({
      isError: true,
      content: [{ text: `#${task.number} “blocked run” is blocked by an open task: #${blocker.number} “unfinished” (todo)` }],
    });
    const forced = data(await tool(owner, "start_run", { workspace_id: wsId, task_id: task.id, instructions: "succeed", force: true }));
    expect(forced).toMatchObject({ task_id: task.id });
  });

  it("start_run takes the HTTP API's agent_id: another workspace's or an unknown profile is refused in words", async () => {
    const task = data(await tool(owner, "create_task", { workspace_id: wsId, title: "named agent", status: "todo" }));
    const refused = await tool(owner, "start_run", {
      workspace_id: wsId,
      task_id: task.id,
      agent_id: "0190b8f0-0000-7000-8000-000000000009",
    });
    expect(refused).toMatchObject({ isError: true, content: [{ type: "text", text: "Agent not found" }] });
  });
});

describe("MCP server: an agent token", () => {
  it("acts in its own workspace only, which it need not name", async () => {
    const task = data(await tool(owner, "create_task", { workspace_id: wsId, title: "hold", status: "todo" }));
    const execution = data(await tool(owner, "start_run", { workspace_id: wsId, task_id: task.id, instructions: "hold 60" }));
    const agentToken = await eventually(async () => {
      const page = data(await tool(owner, "get_run_log", { workspace_id: wsId, execution_id: execution.id }));
      return outputLines(page)
        .find((line: string) => line.startsWith("TOKEN="))
        ?.slice("TOKEN=".length);
    }, 20_000);
    expect(agentToken).toMatch(/^tbg_/);

    // The run's owner is a member of a second workspace; the agent token must not reach it.
    const elsewhere = await server.call("POST", "/api/workspaces", { token, json: { name: "elsewhere" } });
    expect(elsewhere.status).toBe(201);
    const agent = await connect(agentToken);
    expect(data(await tool(agent, "list_workspaces", {})).workspaces).toEqual([expect.objectContaining({ id: wsId })]);
    const created = data(await tool(agent, "create_task", { title: "made by the agent" }));
    expect(created.workspace_id).toBe(wsId);
    // The event log names the agent as the one who made it, as for the HTTP API.
    const stream = await openStream(`${server.url}/api/workspaces/${wsId}/events?after=0`, { authorization: `Bearer ${token}` });
    try {
      for (;;) {
        const event = JSON.parse((await stream.next(10_000, "the agent's task.created")).data!);
        if (event.type !== "task.created" || event.data.id !== created.id) continue;
        expect(event.actor).toMatchObject({ type: "agent", username });
        break;
      }
    } finally {
      stream.close();
    }
    expect(data(await tool(agent, "list_tasks", { search: "made by the agent" })).items).toHaveLength(1);
    expect(data(await tool(agent, "get_task", { task_id: task.id })).id).toBe(task.id);

    const outside = await tool(agent, "create_task", { workspace_id: elsewhere.body.id, title: "escape" });
    expect(outside.isError).toBe(true);
    expect(outside.content[0].text).toBe("Agent tokens may not do this: they act only inside their own workspace, as a member");
    const leaked = await server.call("GET", `/api/workspaces/${elsewhere.body.id}/board`, { token });
    expect(leaked.body.columns.flatMap((c: { items: unknown[] }) => c.items)).toEqual([]);
    const { resources } = await agent.listResources();
    expect(resources.map((r) => r.uri)).toEqual([`taskboard://workspaces/${wsId}/board`]);
    await expect(agent.readResource({ uri: `taskboard://workspaces/${elsewhere.body.id}/board` })).rejects.toThrow(/Agent tokens may not/);

    expect((await server.call("POST", `/api/workspaces/${wsId}/executions/${execution.id}/cancel`, { token })).status).toBe(200);
    // The token dies with its run.
    await expect(agent.callTool({ name: "list_workspaces", arguments: {} })).rejects.toThrow(/401|Invalid or revoked token/);
  });
});
