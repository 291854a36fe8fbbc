import { withUser } from "@/lib/api/handler";
import { serveMcp } from "@/lib/mcp/serve";

// The Model Context Protocol over streamable HTTP (docs/mcp.md). Stateless, so GET (a standalone
// event stream) and DELETE (ending a session) are not exported: Next answers them 405, as the
// transport specification allows. A Bearer credential only: never the browser's cookie.
export const dynamic = "force-dynamic";

export const POST = withUser({ bearerOnly: true }, async ({ request, db, sql, caller, requestId }) =>
  serveMcp({ request, db, sql, caller, requestId }),
);
