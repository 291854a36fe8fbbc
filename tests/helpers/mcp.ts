import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { isDeepStrictEqual } from "node:util";
import { afterAll } from "vitest";
import type { client } from "./api";

// The MCP tests' client side (tests/api/mcp-*.test.ts): the SDK's own client against POST /api/mcp.

export interface ToolResult {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
}

/** A connect(credential) for the server at url(); the clients it makes are closed after the file's tests. */
export function mcpConnector(url: () => string) {
  const clients: Client[] = [];
  afterAll(async () => {
    await Promise.allSettled(clients.map((client) => client.close()));
  });
  return async function connect(credential: string): Promise<Client> {
    const client = new Client({ name: "taskboard-tests", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(`${url()}/api/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${credential}` } },
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  };
}

export async function tool(client: Client, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args })) as unknown as ToolResult;
}

/** A tool's JSON answer (its structured content, which its text must repeat); a tool error throws. */
export function data(result: ToolResult): any {
  if (result.isError) throw new Error(`tool error: ${result.content[0]?.text}`);
  if (!isDeepStrictEqual(result.structuredContent, JSON.parse(result.content[0].text))) {
    throw new Error(`the tool's text is not its structured content: ${result.content[0].text.slice(0, 200)}`);
  }
  return result.structuredContent;
}

export async function newApiKey(call: ReturnType<typeof client>, bearer: string): Promise<{ id: string; key: string }> {
  const created = await call("POST", "/api/auth/api-keys", { token: bearer, json: { name: `mcp-${Date.now()}` } });
  if (created.status !== 201) throw new Error(`api key: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body;
}
