import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { beforeAll, describe, expect, it } from "vitest";
import { newUser, newWorkspace, sharedServer } from "../helpers/api";
import { data, mcpConnector, newApiKey as createApiKey, tool } from "../helpers/mcp";

// The MCP server (POST /api/mcp) as a protocol, through the SDK's own client, on the shared server: tool
// errors, resources, authentication and the transport. The tools at work are in mcp-tools.test.ts.

let server: ReturnType<typeof sharedServer>;
let token: string;
let wsId: string;
let apiKey: string;
let owner: Client;

beforeAll(async () => {
  server = sharedServer();
  // An administrator of its own: the tests below make users, as on a server of their own.
  token = (await newUser({ isAdmin: true })).token;
  wsId = (await newWorkspace(token)).id;
  apiKey = (await newApiKey(token)).key;
  owner = await connect(apiKey);
});

const connect = mcpConnector(() => server.url);
const newApiKey = (bearer: string) => createApiKey(server.call, bearer);

describe("MCP server: tools", () => {
  it("answers errors in the HTTP API's words, as tool errors", async () => {
    const missing = await tool(owner, "get_task", { workspace_id: wsId, task_id: "no-such-task" });
    expect(missing).toMatchObject({ isError: true, content: [{ type: "text", text: "Task not found" }] });
    const noQuestion = await tool(owner, "get_answer", { workspace_id: wsId, question_id: "nope" });
    expect(noQuestion).toMatchObject({ isError: true, content: [{ text: "Question not found" }] });
    const noExecution = await tool(owner, "get_run_log", { workspace_id: wsId, execution_id: "nope" });
    expect(noExecution).toMatchObject({ isError: true, content: [{ text: "Execution not found" }] });

    const stale = await tool(owner, "move_task", {
      workspace_id: wsId,
      task_id: data(await tool(owner, "create_task", { workspace_id: wsId, title: "anchor test" })).id,
      column: "done",
      after_id: "not-in-that-column",
    });
    expect(stale).toMatchObject({ isError: true, content: [{ text: "after_id is not a task in that column" }] });

    // An API key acts in any of its user's workspaces, so it has to name one.
    const unnamed = await tool(owner, "list_tasks", {});
    expect(unnamed.isError).toBe(true);
    expect(unnamed.content[0].text).toContain("workspace_id");

    const invalid = await tool(owner, "create_task", { workspace_id: wsId, title: "" });
    expect(invalid.isError).toBe(true);
    expect(invalid.content[0].text).toContain("title");
  });

  it("answers a workspace the caller is not a member of with Workspace not found", async () => {
    const stranger = await newUserOn("stranger");
    const theirs = await server.call("POST", "/api/workspaces", { token: stranger.token, json: { name: "not yours" } });
    const foreignTask = await server.call("POST", `/api/workspaces/${theirs.body.id}/tasks`, {
      token: stranger.token,
      json: { title: "theirs" },
    });
    for (const [name, args] of [
      ["list_tasks", {}],
      ["get_task", { task_id: foreignTask.body.id }],
      ["create_task", { title: "intruder" }],
      ["list_projects", {}],
    ] as const) {
      const result = await tool(owner, name, { workspace_id: theirs.body.id, ...args });
      expect(result, name).toMatchObject({ isError: true, content: [{ text: "Workspace not found" }] });
    }
    const board = await server.call("GET", `/api/workspaces/${theirs.body.id}/board`, { token: stranger.token });
    expect(board.body.columns[0].items.map((t: { title: string }) => t.title)).toEqual(["theirs"]);
  });
});
describe("MCP server: resources", () => {
  it("reads the board and a task as markdown", async () => {
    const task = data(
      await tool(owner, "create_task", { workspace_id: wsId, title: "Shown on the board", description: "Body text", status: "todo" }),
    );
    await tool(owner, "ask_question", { workspace_id: wsId, task_id: task.id, content: "Is the board readable?" });

    const { resources } = await owner.listResources();
    expect(resources).toEqual([expect.objectContaining({ uri: `taskboard://workspaces/${wsId}/board`, mimeType: "text/markdown" })]);

    const board = await owner.readResource({ uri: `taskboard://workspaces/${wsId}/board` });
    const boardText = String((board.contents[0] as { text: string }).text);
    expect(board.contents[0].mimeType).toBe("text/markdown");
    expect(boardText).toMatch(/^## To do \(\d+\)$/m);
    expect(boardText).toContain(`Shown on the board (\`${task.id}\``);

    const page = await owner.readResource({ uri: `taskboard://workspaces/${wsId}/tasks/${task.id}` });
    const text = String((page.contents[0] as { text: string }).text);
    expect(text).toContain("# Shown on the board");
    expect(text).toContain("Body text");
    expect(text).toContain("- column: To do (`todo`)");
    expect(text).toContain("Is the board readable?");

    await expect(owner.readResource({ uri: `taskboard://workspaces/${wsId}/tasks/no-such-task` })).rejects.toThrow(/Task not found/);
  });
});
describe("MCP server: authentication", () => {
  it("refuses a browser session cookie without a Bearer credential", async () => {
    const cookie = await signIn();
    expect((await fetch(`${server.url}/api/auth/me`, { headers: { cookie } })).status).toBe(200);
    for (const origin of [undefined, server.url]) {
      const response = await fetch(`${server.url}/api/mcp`, {
        method: "POST",
        headers: { cookie, ...(origin ? { origin } : {}), ...MCP_HEADERS },
        body: JSON.stringify(INITIALIZE),
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ detail: "Not authenticated" });
    }
    const client = new Client({ name: "cookie", version: "1.0.0" });
    await expect(
      client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp`), { requestInit: { headers: { cookie } } })),
    ).rejects.toThrow(/401|Not authenticated/);
  });

  it("refuses an invalid key and a revoked key", async () => {
    await expect(connect("tbk_not-a-real-key")).rejects.toThrow(/Invalid or revoked token/);

    const key = await newApiKey(token);
    const client = await connect(key.key);
    expect(data(await tool(client, "list_workspaces", {})).workspaces).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: wsId })]),
    );
    expect((await server.call("DELETE", `/api/auth/api-keys/${key.id}`, { token })).status).toBe(204);
    // The next request of the same client is refused: every request is checked again.
    await expect(client.callTool({ name: "list_workspaces", arguments: {} })).rejects.toThrow(/401|Invalid or revoked token/);
    await expect(connect(key.key)).rejects.toThrow(/Invalid or revoked token/);
  });

  it("answers 405 to GET and DELETE: a stateless server has no stream or session to open or end", async () => {
    for (const method of ["GET", "DELETE"]) {
      const response = await fetch(`${server.url}/api/mcp`, {
        method,
        headers: { authorization: `Bearer ${apiKey}`, accept: "text/event-stream" },
      });
      expect(response.status, method).toBe(405);
      expect(response.headers.get("allow"), method).toContain("POST");
      expect(await response.json()).toEqual({ detail: "Method Not Allowed" });
    }
  });

  it("answers what the transport refuses with the API's detail body, and the JSON-RPC error", async () => {
    const post = (headers: Record<string, string>, body: string) =>
      fetch(`${server.url}/api/mcp`, { method: "POST", headers: { authorization: `Bearer ${apiKey}`, ...headers }, body });
    const noAccept = await post({ "content-type": "application/json" }, JSON.stringify(INITIALIZE));
    expect(noAccept.status).toBe(406);
    expect(await noAccept.json()).toMatchObject({
      detail: "Not Acceptable: Client must accept both application/json and text/event-stream",
      jsonrpc: "2.0",
      error: { code: -32000 },
    });
    const notJsonRpc = await post(MCP_HEADERS, JSON.stringify({ hello: "world" }));
    expect(notJsonRpc.status).toBe(400);
    expect((await notJsonRpc.json()).detail).toContain("Invalid JSON-RPC message");
  });
});

const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

async function newUserOn(prefix: string) {
  const username = `${prefix}_${Date.now()}`;
  const password = "password-for-mcp-tests";
  const created = await server.call("POST", "/api/users", { token, json: { username, password } });
  if (created.status !== 201) throw new Error(`user: ${created.status} ${JSON.stringify(created.body)}`);
  const login = await server.call("POST", "/api/auth/login", { json: { username, password } });
  return { token: login.body.access_token as string };
}

/** next-auth's credentials sign-in, as the browser does it; returns the Cookie header. */
async function signIn(): Promise<string> {
  const cookies = new Map<string, string>();
  const take = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const index = pair.indexOf("=");
      cookies.set(pair.slice(0, index), pair.slice(index + 1));
    }
  };
  const header = () => [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  const csrf = await fetch(`${server.url}/api/auth/csrf`);
  take(csrf);
  const { csrfToken } = await csrf.json();
  const username = `cookie_${Date.now()}`;
  const password = "password-for-mcp-tests";
  expect((await server.call("POST", "/api/users", { token, json: { username, password } })).status).toBe(201);
  const response = await fetch(`${server.url}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: header(), "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, username, password, json: "true" }),
  });
  take(response);
  if (!cookies.get("next-auth.session-token")) throw new Error("no session cookie after sign-in");
  return header();
}
