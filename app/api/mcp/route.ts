import { withUser } from "@/lib/api/handler";
import { serveMcp } from "@/lib/mcp/serve";

// The Model Context Protocol over streamable HTTP (docs/mcp.md), stateless: POST only (proxy.ts
// answers GET and DELETE 405, as the transport specification allows). A Bearer credential
// only: never the browser's cookie. Agent tokens are let in: each tool call then checks its
// workspace as withWorkspace does (lib/mcp/workspace.ts), which keeps them inside their own.
export const dynamic = "force-dynamic";

export const POST = withUser({ bearerOnly: true, agentAllowed: true }, async ({ request, db, sql, caller, requestId }) =>
  serveMcp({ request, db, sql, caller, requestId }),
);
