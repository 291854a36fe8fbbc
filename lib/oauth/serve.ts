import { originOf } from "@/lib/auth/mcp-audience";
import { nodePair } from "@/lib/oauth/node-bridge";
import { providerFor } from "@/lib/oauth/provider";

/**
 * Hands a request to the authorization server (oidc-provider) and returns its answer: the routes
 * under /oauth/ and the metadata documents under /.well-known/. `path` replaces the request's own
 * path, for a document the provider serves under another name.
 */
export async function serveOAuth(request: Request, path?: string): Promise<Response> {
  const provider = providerFor(originOf(request));
  let pair;
  try {
    pair = await nodePair(request, path);
  } catch {
    return Response.json({ error: "invalid_request", error_description: "request body too large" }, { status: 413 });
  }
  provider.callback()(pair.req, pair.res);
  return pair.done;
}
