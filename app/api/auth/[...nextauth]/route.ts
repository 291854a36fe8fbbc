import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/next-auth-options";
import { asApiError } from "@/lib/platform/errors";

// next-auth's own endpoints (sign-in, session, CSRF, sign-out) for the browser. The API's static
// routes beside this one (login, refresh, logout, me, api-keys) take precedence over this catch-all.
// next-auth answers what it does not know (e.g. /api/auth/nope) in plain text; every API error is
// `{"detail": …}`, so those are rewritten.
async function handler(request: Request, context: { params: Promise<{ nextauth: string[] }> }) {
  return asApiError(await NextAuth(request as never, context as never, authOptions()));
}

export { handler as GET, handler as POST };
