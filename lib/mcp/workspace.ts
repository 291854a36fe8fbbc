import type { Db } from "@/lib/db/client";
import type { Sql } from "@/lib/db/sql";
import { ValidationError } from "@/lib/platform/errors";
import { membershipOf } from "@/lib/api/handler";
import { authenticateAndRead, type Caller, type WorkspaceRead } from "@/lib/auth/authenticate";

/** One MCP request: the HTTP request, its connections and the caller withUser authenticated. */
export interface McpRequest {
  request: Request;
  db: Db;
  sql: Sql;
  caller: Caller;
  requestId: string;
}

/**
 * The workspace a tool call acts in, checked exactly as withWorkspace checks the `{id}` of a path
 * (credential and membership in one statement, then membershipOf), so an agent token stays in its
 * workspace here as it does in the HTTP API. An agent token may leave `workspace_id` out: its
 * workspace is implied. `read`, when given, travels in the same statement (withWorkspaceRead's way).
 */
export async function enterWorkspace(mcp: McpRequest, workspaceId: string | undefined, read: WorkspaceRead | null = null) {
  const id = workspaceId ?? mcp.caller.workspaceScope;
  if (!id) {
    throw new ValidationError([
      { type: "missing", loc: ["workspace_id"], msg: "Field required (list_workspaces lists the workspaces you can use)", input: null },
    ]);
  }
  const { caller, body } = await authenticateAndRead(mcp.request, mcp.sql, id, read);
  const membership = membershipOf(caller, id);
  return { id, name: membership.workspaceName, role: membership.role, caller, body };
}
