import { serveOAuth } from "@/lib/oauth/serve";

// OpenID Connect discovery, the same document as /.well-known/oauth-authorization-server.
export const dynamic = "force-dynamic";

export const GET = (request: Request) => serveOAuth(request);
export const OPTIONS = (request: Request) => serveOAuth(request);
