import type { Caller } from "@/lib/auth/authenticate";
import { mcpResource, originOf } from "@/lib/auth/mcp-audience";
import { nodePair } from "@/lib/oauth/node-bridge";
import { MCP_SCOPE, providerFor } from "@/lib/oauth/provider";
import { redirectHost } from "@/lib/oauth/redirect-host";

// The person's answer on the consent page (app/oauth/consent/[uid]): Allow grants the client the
// MCP endpoint, as the signed-in person, with their own rights; Deny sends the client
// `access_denied`. The interaction is found through its cookie (set on this browser when the
// provider sent it here), so another browser cannot answer for it.

const OIDC_SCOPES = new Set(["openid", "offline_access", MCP_SCOPE]);

/** The address the browser goes to next: the provider's resume endpoint, which redirects to the client. */
export async function decideConsent(request: Request, caller: Caller, allow: boolean): Promise<string> {
  const origin = originOf(request);
  const provider = providerFor(origin);
  const { req, res } = await nodePair(new Request(request.url, { method: "GET", headers: request.headers }));
  const details = await provider.interactionDetails(req, res);
  if (!allow) {
    const result = { error: "access_denied", error_description: `${caller.username} denied access` };
    return provider.interactionResult(req, res, result, { mergeWithLastSubmission: false });
  }
  const clientId = String(details.params.client_id);
  const existing = details.grantId ? await provider.Grant.find(details.grantId) : undefined;
  const grant = existing?.accountId === caller.userId ? existing : new provider.Grant({ clientId, accountId: caller.userId });
  for (const scope of String(details.params.scope ?? "").split(" ")) if (OIDC_SCOPES.has(scope)) grant.addOIDCScope(scope);
  grant.addResourceScope(mcpResource(origin), MCP_SCOPE);
  const grantId = await grant.save();
  return provider.interactionResult(
    req,
    res,
    { login: { accountId: caller.userId }, consent: { grantId } },
    { mergeWithLastSubmission: true },
  );
}

/** What the consent page shows: the client's name and where it will be sent; null for an unknown or expired request. */
export async function consentRequest(origin: string, uid: string) {
  const provider = providerFor(origin);
  const interaction = await provider.Interaction.find(uid);
  if (!interaction) return null;
  const client = await provider.Client.find(String(interaction.params.client_id));
  if (!client) return null;
  const redirect = String(interaction.params.redirect_uri ?? client.redirectUris[0] ?? "");
  return { clientName: client.clientName || client.clientId, redirectHost: redirectHost(redirect) };
}
