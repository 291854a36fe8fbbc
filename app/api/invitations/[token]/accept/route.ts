import { json, publicRoute } from "@/lib/api/handler";
import { authenticate } from "@/lib/auth/authenticate";
import { acceptInvitationBody, tokenParams } from "@/lib/invitations/schemas";
import { acceptInvitation, type Joiner } from "@/lib/invitations/accept-invitation";
import { agentRefused, forbidden, HttpError, unauthorized, ValidationError } from "@/lib/platform/errors";

// Two ways in (docs/api.md): a new account's username and password, or no account fields and a
// credential (Bearer or the browser's cookie): that user joins.
export const POST = publicRoute({ params: tokenParams, body: acceptInvitationBody }, async ({ request, db, sql, params, body }) => {
  let joiner: Joiner;
  if (body.username !== undefined || body.password !== undefined) {
    if (body.username === undefined || body.password === undefined) throw missing(body.username === undefined ? "username" : "password");
    joiner = { username: body.username, password: body.password, display_name: body.display_name };
  } else {
    const caller = await authenticate(request, sql).catch((error: unknown) => {
      if (error instanceof HttpError && error.status === 401) {
        throw unauthorized(`${error.detail}: sign in to join as yourself, or send username and password for a new account`);
      }
      throw error;
    });
    if (caller.workspaceScope) throw forbidden(agentRefused("accept invitations"));
    joiner = { userId: caller.userId };
  }
  return json(await acceptInvitation(db, params.token, joiner), 201);
});

function missing(field: string) {
  const msg = "Field required: a new account needs both username and password";
  return new ValidationError([{ type: "missing", loc: ["body", field], msg, input: null }]);
}
