import { json, publicRoute } from "@/lib/api/handler";
import { setupBody } from "@/lib/users/schemas";
import { createFirstAdmin } from "@/lib/users/create-user";
import { needsSetup } from "@/lib/auth/needs-setup";
import { clientAddress } from "@/lib/auth/client-address";
import { setupCodeRequired } from "@/lib/auth/setup-code";
import { assertSetupRequest } from "@/lib/auth/setup-request";

// The one-time "create the first admin" step; refused (409) once any user exists, and from another
// machine than the server's own without the setup code from the server's log (403).
export const GET = publicRoute({}, async ({ db, request }) => {
  const open = await needsSetup(db);
  return json({ needs_setup: open, code_required: open && setupCodeRequired(clientAddress(request.headers)) });
});

// Before the body: Host, Content-Type and Origin, so no web page in the operator's browser can send it.
export const POST = publicRoute({ body: setupBody, before: assertSetupRequest }, async ({ db, body, request }) =>
  json(await createFirstAdmin(db, body.username, body.password, { client: clientAddress(request.headers), code: body.code }), 201),
);
