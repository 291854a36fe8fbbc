import { publicUrl, trustProxyHops } from "@/lib/config";

// Where OAuth access tokens may be used: the MCP endpoint only (docs/SECURITY.md, "MCP over
// OAuth"). Its URL, the resource of RFC 8707 and RFC 9728, is the audience every such token carries.

export const MCP_PATH = "/api/mcp";

/**
 * The site's origin as clients reach it: PUBLIC_URL (or NEXTAUTH_URL) when set, else the Host the
 * request was sent to (Next's request.url names the address it listens on, not the one the client
 * used), and X-Forwarded-Host/Proto behind a trusted proxy (TRUST_PROXY_HOPS). A client naming
 * another host gets tokens for that host's resource, valid only there.
 */
export function originOf(request: Request): string {
  return originFromHeaders(request.headers, new URL(request.url));
}

export function originFromHeaders(headers: Headers, url: URL | null): string {
  const configured = publicUrl();
  if (configured) return configured.origin;
  const forwarded = (name: string) => (trustProxyHops() > 0 ? headers.get(name)?.split(",")[0].trim() : undefined);
  const proto = forwarded("x-forwarded-proto") || url?.protocol.replace(":", "") || "http";
  const host = forwarded("x-forwarded-host") || headers.get("host") || url?.host;
  return `${proto}://${host}`;
}

/** The protected resource: the MCP endpoint's URL at `origin`. */
export function mcpResource(origin: string): string {
  return `${origin}${MCP_PATH}`;
}

/** The audience an OAuth token must carry to be accepted on this request, or null where none is. */
export function acceptedAudience(request: Request): string | null {
  return new URL(request.url).pathname === MCP_PATH ? mcpResource(originOf(request)) : null;
}
