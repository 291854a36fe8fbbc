import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/next-auth-options";

// next-auth's own endpoints (sign-in, session, CSRF, sign-out) for the browser. The API's static
// routes beside this one (login, refresh, logout, me, api-keys) take precedence over this catch-all.
async function handler(request: Request, context: { params: Promise<{ nextauth: string[] }> }) {
  return NextAuth(request as never, context as never, authOptions());
}

export { handler as GET, handler as POST };
