import { withUser } from "@/lib/api/handler";
import { installCallbackQuery } from "@/lib/github/connection/schemas";
import { finishGithubInstall } from "@/lib/github/connection/github-install";

// The App's callback URL: with user authorization requested during installation, GitHub sends the
// browser here after installing the App (installation_id, code, state), signed in to the board.
export const GET = withUser({ query: installCallbackQuery }, async ({ db, caller, query }) => {
  const workspaceId = await finishGithubInstall(db, caller.userId, query);
  return new Response(null, { status: 303, headers: { location: `/w/${workspaceId}/settings?github=installed` } });
});
