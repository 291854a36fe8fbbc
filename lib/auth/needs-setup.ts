import type { Tx } from "@/lib/db/client";

/** The one rule for "first start": setup is open while no user exists (the setup page, the API, start-up and the login redirect ask here). */
export async function needsSetup(db: Pick<Tx, "user">): Promise<boolean> {
  return (await db.user.count()) === 0;
}
