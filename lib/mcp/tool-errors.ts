import { ErrorCode, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { errorResponse } from "@/lib/api/handler";
import type { McpRequest } from "@/lib/mcp/workspace";

// A failed tool or resource read says what the HTTP API would have said: lib/api/handler.ts's
// errorResponse decides the words for both.

async function errorOf(error: unknown, requestId: string): Promise<{ status: number; text: string }> {
  const response = errorResponse(error, requestId);
  const { detail } = (await response.json()) as { detail: unknown };
  return { status: response.status, text: typeof detail === "string" ? detail : JSON.stringify(detail) };
}

export async function toolError(error: unknown, requestId: string): Promise<CallToolResult> {
  return { isError: true, content: [{ type: "text", text: (await errorOf(error, requestId)).text }] };
}

// A resource that cannot be read is a JSON-RPC error; -32002 is the MCP spec's "resource not found".
export async function resource<T>(mcp: McpRequest, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    const { status, text } = await errorOf(error, mcp.requestId);
    throw new McpError(status === 404 ? -32002 : status < 500 ? ErrorCode.InvalidParams : ErrorCode.InternalError, text);
  }
}
