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
  const response = await transport.handleRequest(mcp.request);
  return response.status >= 400 ? withDetail(response) : response;
}

// The transport refuses what it cannot take (406 without the right Accept, 415, 400 for a message
// that is not JSON-RPC, 413) with a JSON-RPC error body. The API's errors are `{"detail": …}`, so
// its message goes there too; MCP clients read only the status.
async function withDetail(response: Response): Promise<Response> {
  const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
  return Response.json(
    { detail: body?.error?.message ?? response.statusText, ...body },
    { status: response.status, headers: response.headers },
  );
}
