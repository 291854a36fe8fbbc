import type { Db } from "@/lib/db/client";
import { accessTokenExpireDays } from "@/lib/config";
import { daysFromNow, hashSecret, newSecret } from "@/lib/auth/tokens";

/**
 * The `browser_session` row behind a next-auth cookie; its secret goes into the cookie (`sid`).
 * Password and single sign-on both end here, so the rest of the app cannot tell them apart.
 */
export async function createBrowserSession(db: Db, userId: string): Promise<string> {
  const sid = newSecret("browser_session");
  await db.authToken.create({
    data: { kind: "browser_session", userId, tokenHash: hashSecret(sid), expiresAt: daysFromNow(accessTokenExpireDays()) },
  });
  return sid;
}
