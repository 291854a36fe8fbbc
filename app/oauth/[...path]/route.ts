import { serveOAuth } from "@/lib/oauth/serve";

// The authorization server's endpoints (authorize, token, register, revoke, jwks, userinfo; their
// paths in lib/oauth/provider.ts), answered by oidc-provider through lib/oauth/node-bridge.ts.
// Not under /api: these speak OAuth's formats (RFC 6749 errors), not the API's.
export const dynamic = "force-dynamic";

export const GET = (request: Request) => serveOAuth(request);
export const POST = (request: Request) => serveOAuth(request);
export const OPTIONS = (request: Request) => serveOAuth(request);
