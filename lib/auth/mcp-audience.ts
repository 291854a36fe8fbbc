import { publicUrl } from "@/lib/config";

// Where OAuth access tokens may be used: the MCP endpoint only (docs/SECURITY.md, "MCP over
// OAuth"). Its URL, the resource of RFC 8707 and RFC 9728, is the audience every such token carries.

export const MCP_PATH = "/api/mcp";

/** The site's origin as clients reach it: PUBLIC_URL (or NEXTAUTH_URL) when set, else the request's own. */
export function originOf(request: Request): string {
  return (publicUrl() ?? new URL(request.url)).origin;
}

/** The protected resource: the MCP endpoint's URL at `origin`. */
export function mcpResource(origin: string): string {
  return `${origin}${MCP_PATH}`;
}

/** The audience an OAuth token must carry to be accepted on this request, or null where none is. */
export function acceptedAudience(request: Request): string | null {
  return new URL(request.url).pathname === MCP_PATH ? mcpResource(originOf(request)) : null;
}
