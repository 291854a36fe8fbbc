import { mcpResource, originOf } from "@/lib/auth/mcp-audience";
import { MCP_SCOPE } from "@/lib/oauth/provider";

/**
 * RFC 9728 protected resource metadata for /api/mcp: where MCP clients learn which authorization
 * server to sign in with. Public, and readable from any origin (browser-based clients fetch it).
 */
export function protectedResourceMetadata(request: Request): Response {
  const origin = originOf(request);
  return Response.json(
    {
      resource: mcpResource(origin),
      authorization_servers: [origin],
      scopes_supported: [MCP_SCOPE],
      bearer_methods_supported: ["header"],
      resource_name: "Taskboard",
      resource_documentation: `${origin}/docs`,
    },
    { headers: { "access-control-allow-origin": "*", "cache-control": "public, max-age=300" } },
  );
}

/** The 401 of /api/mcp names the metadata, so a client that has no token knows where to get one. */
export function withResourceMetadata(request: Request, response: Response): Response {
  if (response.status !== 401) return response;
  const metadata = `${originOf(request)}/.well-known/oauth-protected-resource/api/mcp`;
  const headers = new Headers(response.headers);
  headers.set("www-authenticate", `Bearer resource_metadata="${metadata}", scope="${MCP_SCOPE}"`);
  return new Response(response.body, { status: 401, headers });
}
