import { z } from "zod";
import type { OperationSpec } from "@/lib/openapi/types";
import { clientIdParams, connectedClientsResponse } from "@/lib/oauth/schemas";

// The MCP endpoint speaks JSON-RPC 2.0 (Model Context Protocol, streamable HTTP transport); its
// methods and tools are described by the protocol itself (tools/list), and in docs/mcp.md.
const jsonRpcMessage = z
  .object({
    jsonrpc: z.literal("2.0"),
    id: z.union([z.string(), z.int()]).optional().describe("Present on requests; absent on notifications."),
    method: z.string().describe("e.g. initialize, tools/list, tools/call, resources/read"),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .describe("A JSON-RPC message, or an array of them.");

// What the transport answers to a request it cannot take: a JSON-RPC error, with its message in
// `detail` as well, like every error of the API (lib/mcp/serve.ts).
const jsonRpcError = z.object({
  detail: z.string(),
  jsonrpc: z.literal("2.0"),
  id: z.null(),
  error: z.object({ code: z.int(), message: z.string() }),
});

export const mcpOperations: OperationSpec[] = [
  {
    method: "post",
    path: "/api/mcp",
    operationId: "mcp",
    summary:
      "Model Context Protocol server (streamable HTTP, stateless): tools and resources for agents to work the board. " +
      "Send `Accept: application/json, text/event-stream`. A Bearer API key or agent token only: a browser session cookie " +
      "is refused (401). GET and DELETE answer 405 (no standalone stream, no sessions). See docs/mcp.md.",
    tags: ["mcp"],
    body: jsonRpcMessage,
    responses: {
      200: { description: "The JSON-RPC response(s), as a text/event-stream (one `message` event per response)" },
      202: { description: "Accepted: the body held only notifications or responses" },
      400: { description: "Not a valid JSON-RPC message, or an unsupported MCP-Protocol-Version", schema: jsonRpcError },
      406: { description: "The Accept header lacks application/json or text/event-stream", schema: jsonRpcError },
      413: { description: "Body larger than 1 MiB", schema: jsonRpcError },
      415: { description: "Content-Type is not application/json", schema: jsonRpcError },
    },
  },
  // The programs a person connected over OAuth (Settings → Connected apps). People only: agent
  // tokens get 403, and an MCP client's own OAuth token works on /api/mcp alone.
  {
    method: "get",
    path: "/api/me/oauth-clients",
    operationId: "listConnectedClients",
    summary: "The MCP clients you allowed over OAuth, newest first, with when each last called /api/mcp",
    tags: ["mcp"],
    responses: { 200: { description: "Your connected apps", schema: connectedClientsResponse } },
  },
  {
    method: "delete",
    path: "/api/me/oauth-clients/{client_id}",
    operationId: "disconnectClient",
    summary: "Revoke what you allowed a client: its refresh and access tokens stop working at once",
    tags: ["mcp"],
    params: clientIdParams,
    responses: {
      204: { description: "Disconnected" },
      404: { description: "You have allowed no client with this id" },
    },
  },
];
