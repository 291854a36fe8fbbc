import { noContent, withUser } from "@/lib/api/handler";
import { logout } from "@/lib/auth/logout";

export const POST = withUser({ agentAllowed: true }, async ({ db, caller }) => {
  await logout(db, caller);
  return noContent();
});
