import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { MAX_BODY_BYTES } from "@/lib/api/handler";
import { createMcpServer } from "@/lib/mcp/server";
import type { McpRequest } from "@/lib/mcp/workspace";

/**
 * POST /api/mcp, once withUser has authenticated the caller. Stateless: a new server and transport
 * for each request, since each request carries its credential and nothing of a session is needed
 * between requests; so any instance can answer any request, and nothing is kept in memory.
 */
export async function serveMcp(mcp: McpRequest): Promise<Response> {
  const server = createMcpServer(mcp);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, maxRequestBodySize: MAX_BODY_BYTES });
  await server.connect(transport);
  // The answer streams (Server-Sent Events, with keep-alive comments during a long ask_question);
  // when the client goes away, the request's work is dropped with it.
  mcp.request.signal.addEventListener("abort", () => void server.close(), { once: true });
  return transport.handleRequest(mcp.request);
}

/**
 * GET (a standalone server-to-client stream) and DELETE (ending a session): a stateless server has
 * neither, and the transport specification has it answer 405; the body is the SDK's own.
 */
export function mcpMethodNotAllowed(): Response {
  return Response.json(
    { jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed: this MCP server is stateless; POST only" }, id: null },
    { status: 405, headers: { allow: "POST" } },
  );
}
