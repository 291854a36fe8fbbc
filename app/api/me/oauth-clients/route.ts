import { json, withUser } from "@/lib/api/handler";
import { listConnectedClients } from "@/lib/oauth/list-connected-clients";

// The programs the signed-in person connected to the MCP server over OAuth (docs/mcp.md, "OAuth").

export const GET = withUser({}, async ({ db, caller }) => json(await listConnectedClients(db, caller.userId)));
