import { protectedResourceMetadata } from "@/lib/oauth/resource-metadata";

// RFC 9728: at the root and path-suffixed by the resource's path (/api/mcp); MCP clients try both.
export const dynamic = "force-dynamic";

export const GET = (request: Request) => protectedResourceMetadata(request);
