import { json, publicRoute } from "@/lib/api/handler";
import { loginBody } from "@/lib/auth/schemas";
import { checkCredentials, clientAddress } from "@/lib/auth/login";
import { issueLoginTokens } from "@/lib/auth/tokens";

export const POST = publicRoute({ body: loginBody }, async ({ db, body, request }) => {
  const user = await checkCredentials(db, body.username, body.password, clientAddress(request.headers));
  return json(await issueLoginTokens(db, user.id));
});
