import { serveOAuth } from "@/lib/oauth/serve";

// RFC 8414 authorization server metadata: oidc-provider's discovery document, which is a superset.
export const dynamic = "force-dynamic";

export const GET = (request: Request) => serveOAuth(request, "/.well-known/openid-configuration");
export const OPTIONS = (request: Request) => serveOAuth(request, "/.well-known/openid-configuration");
