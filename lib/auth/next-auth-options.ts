import CredentialsProvider from "next-auth/providers/credentials";
import type { NextAuthOptions } from "next-auth";
import { getDb } from "@/lib/db/client";
import { HttpError } from "@/lib/api/errors";
import { accessTokenExpireDays } from "@/lib/config";
import { checkCredentials } from "@/lib/auth/login";
import { clientAddress } from "@/lib/auth/client-address";
import { authSecret } from "@/lib/auth/secret";
import { daysFromNow, hashSecret, newSecret } from "@/lib/auth/tokens";

// next-auth works out its own URL from the request's Host rather than needing NEXTAUTH_URL.
process.env.AUTH_TRUST_HOST ??= "true";

/**
 * Browser sign-in over the same users as the API. The encrypted session cookie carries the secret
 * of a `browser_session` row, so signing out or disabling the user ends the session at once.
 * A function, not a constant: the secret is read from DATA_DIR only when a request needs it.
 */
export function authOptions(): NextAuthOptions {
  return {
    secret: authSecret(),
    session: { strategy: "jwt", maxAge: accessTokenExpireDays() * 86_400 },
    pages: { signIn: "/login" },
    providers: [
      CredentialsProvider({
        name: "Password",
        credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
        async authorize(credentials, req) {
          const db = await getDb();
          try {
            const headers = (req?.headers ?? {}) as Record<string, unknown>;
            const user = await checkCredentials(db, {
              username: credentials?.username ?? "",
              password: credentials?.password ?? "",
              client: clientAddress(headers),
              cookies: typeof headers.cookie === "string" ? headers.cookie : null,
            });
            const sid = newSecret("browser_session");
            await db.authToken.create({
              data: {
                kind: "browser_session",
                userId: user.id,
                tokenHash: hashSecret(sid),
                expiresAt: daysFromNow(accessTokenExpireDays()),
              },
            });
            return { id: user.id, name: user.username, sid, isAdmin: user.isAdmin };
          } catch (error) {
            // next-auth hands the message to the sign-in form.
            if (error instanceof HttpError) throw new Error(String(error.detail));
            throw error;
          }
        },
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        if (user) {
          const signedIn = user as typeof user & { sid: string; isAdmin: boolean };
          token.sid = signedIn.sid;
          token.isAdmin = signedIn.isAdmin;
        }
        return token;
      },
      session({ session, token }) {
        return { ...session, user: { name: token.name, isAdmin: Boolean(token.isAdmin) } };
      },
    },
    events: {
      async signOut({ token }) {
        if (typeof token?.sid !== "string") return;
        const db = await getDb();
        await db.authToken.updateMany({ where: { tokenHash: hashSecret(token.sid) }, data: { revokedAt: new Date() } });
      },
    },
  };
}
