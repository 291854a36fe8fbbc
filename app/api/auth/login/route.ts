import { json, publicRoute } from "@/lib/api/handler";
import { loginBody } from "@/lib/auth/schemas";
import { checkCredentials, knownDeviceCookie } from "@/lib/auth/login";
import { clientAddress } from "@/lib/auth/client-address";
import { issueLoginTokens } from "@/lib/auth/tokens";

export const POST = publicRoute({ body: loginBody }, async ({ db, body, request }) => {
  const user = await checkCredentials(db, { ...body, client: clientAddress(request.headers), cookies: request.headers.get("cookie") });
  return json(await issueLoginTokens(db, user.id), 200, { "set-cookie": knownDeviceCookie(user.username) });
});
