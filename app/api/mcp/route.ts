import { withUser } from "@/lib/api/handler";
import { serveMcp } from "@/lib/mcp/serve";
import { withResourceMetadata } from "@/lib/oauth/resource-metadata";

// The Model Context Protocol over streamable HTTP (docs/mcp.md), stateless: POST only
// (lib/api/http-guard.ts answers GET and DELETE 405, as the transport specification allows). A Bearer credential
// only: never the browser's cookie. Agent tokens are let in: each tool call then checks its
// workspace as withWorkspace does (lib/mcp/workspace.ts), which keeps them inside their own.
// OAuth access tokens (docs/mcp.md, "OAuth") count here, and only here; a 401 names the
// protected resource metadata, where a client without a token learns how to get one.
export const dynamic = "force-dynamic";

const serve = withUser({ bearerOnly: true, agentAllowed: true }, async ({ request, db, sql, caller, requestId }) =>
  serveMcp({ request, db, sql, caller, requestId }),
);

export async function POST(request: Request, context: { params: Promise<Record<string, string | string[] | undefined>> }) {
  return withResourceMetadata(request, await serve(request, context));
}
