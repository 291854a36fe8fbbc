import { z } from "zod";

// A program a person signed in to the MCP server over OAuth (Settings → Connected apps).

export const connectedClientResponse = z.object({
  client_id: z.string(),
  name: z.string().describe("The name the client registered with (RFC 7591 client_name), else its client_id."),
  redirect_hosts: z.array(z.string()).describe("Where its sign-in returns to: tells a local CLI (127.0.0.1) from a web app."),
  connected_at: z.string().describe("When you first allowed it."),
  last_used_at: z.string().nullable().describe("Its last call to /api/mcp, to the minute; null when not within the last 30 days."),
});
export type ConnectedClient = z.output<typeof connectedClientResponse>;

export const connectedClientsResponse = z.array(connectedClientResponse);

export const clientIdParams = z.object({ client_id: z.string().min(1).max(200) });
