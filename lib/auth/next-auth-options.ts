import CredentialsProvider from "next-auth/providers/credentials";
import type { NextAuthOptions } from "next-auth";
import type { OAuthConfig } from "next-auth/providers/oauth";
import { getDb } from "@/lib/db/client";
import { HttpError } from "@/lib/platform/errors";
import { accessTokenExpireDays, oidcConfig, passwordLoginEnabled, type OidcConfig } from "@/lib/config";
import { checkCredentials } from "@/lib/auth/login";
import { clientAddress } from "@/lib/auth/client-address";
import { authSecret } from "@/lib/crypto/auth-secret";
import { hashSecret } from "@/lib/auth/tokens";
import { createBrowserSession } from "@/lib/auth/browser-session";
import { signInWithOidc, type OidcClaims } from "@/lib/auth/sign-in-with-oidc";

/** next-auth's id of the single sign-on provider: its callback is /api/auth/callback/oidc. */
export const OIDC_PROVIDER_ID = "oidc";

// next-auth works out its own URL from the request's Host rather than needing NEXTAUTH_URL.
process.env.AUTH_TRUST_HOST ??= "true";

/**
 * Browser sign-in over the same users as the API. The encrypted session cookie carries the secret
 * of a `browser_session` row, so signing out or disabling the user ends the session at once.
 * A function, not a constant: the secret is read from DATA_DIR only when a request needs it.
 */
export function authOptions(): NextAuthOptions {
  const sso = oidcConfig();
  return {
    secret: authSecret(),
    session: { strategy: "jwt", maxAge: accessTokenExpireDays() * 86_400 },
    // Refusals of single sign-on come back to the login page as ?error=<code>.
    pages: { signIn: "/login", error: "/login" },
    providers: [...(passwordLoginEnabled() ? [passwordProvider()] : []), ...(sso ? [oidcProvider(sso)] : [])],
    callbacks: {
      async signIn({ user, account, profile }) {
        if (account?.provider !== OIDC_PROVIDER_ID) return true;
        if (!sso) return "/login?error=SsoNotAllowed";
        const result = await signInWithOidc(await getDb(), sso, (profile ?? {}) as OidcClaims);
        if ("refused" in result) return `/login?error=${result.refused}`;
        // next-auth hands this same object to the jwt callback below and names the token after it.
        Object.assign(user, { name: result.username, email: null, image: null, sid: result.sid, isAdmin: result.isAdmin });
        return true;
      },
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

function passwordProvider() {
  return CredentialsProvider({
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
        const sid = await createBrowserSession(db, user.id);
        return { id: user.id, name: user.username, sid, isAdmin: user.isAdmin };
      } catch (error) {
        // next-auth hands the message to the sign-in form.
        if (error instanceof HttpError) throw new Error(String(error.detail));
        throw error;
      }
    },
  });
}

/**
 * Any OpenID Connect provider, found through its discovery document: authorization code flow with
 * PKCE, state and nonce; the ID token is verified by openid-client. Claims are the ID token's merged
 * with the userinfo endpoint's, since providers differ in which of the two carries email and groups.
 */
function oidcProvider(config: OidcConfig): OAuthConfig<OidcClaims & { sub: string }> {
  return {
    id: OIDC_PROVIDER_ID,
    name: config.name,
    type: "oauth",
    wellKnown: `${config.issuer}/.well-known/openid-configuration`,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    authorization: { params: { scope: config.scopes } },
    checks: ["pkce", "state", "nonce"],
    idToken: true,
    userinfo: {
      async request({ tokens, client }) {
        // next-auth's type says parameters; at run time it is openid-client's TokenSet.
        const tokenSet = tokens as unknown as Parameters<typeof client.userinfo>[0] & { claims(): Record<string, unknown> };
        const claims = tokenSet.claims();
        if (!client.issuer.metadata.userinfo_endpoint || !tokens.access_token) return claims;
        // openid-client checks that the userinfo's subject is the ID token's.
        return { ...claims, ...(await client.userinfo(tokenSet)), iss: claims.iss };
      },
    },
    profile(claims) {
      return { id: String(claims.sub), name: null, email: null, image: null };
    },
  };
}
