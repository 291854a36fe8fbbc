import { pushAllowPrivateEndpoints } from "@/lib/config";
import { ForbiddenAddressError, resolveTarget, type Target } from "@/lib/net/guard-address";
import { ValidationError } from "@/lib/platform/errors";

// The server sends to a subscription's endpoint on the browser's word: the same server-side
// request forgery guard as webhooks (lib/net/guard-address.ts), when the subscription is stored
// and again at each send, whose connection goes to the address checked then.

/** The address to send to, or a 422 saying why the endpoint is refused. */
export async function checkPushEndpoint(endpoint: string): Promise<Target> {
  const url = new URL(endpoint);
  const allowed = pushAllowPrivateEndpoints();
  const policy =
    allowed === true
      ? true
      : { exempt: (address: string) => allowed.includes(address), remedy: "PUSH_ALLOW_PRIVATE_ENDPOINTS lists the addresses allowed" };
  try {
    return await resolveTarget(url.hostname, policy);
  } catch (error) {
    const msg = error instanceof ForbiddenAddressError ? error.message : `The push endpoint's host ${url.hostname} did not resolve`;
    throw new ValidationError([{ type: "value_error", loc: ["body", "endpoint"], msg, input: endpoint }]);
  }
}
