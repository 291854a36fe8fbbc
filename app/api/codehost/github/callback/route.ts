import { withUser } from "@/lib/api/handler";
import { installCallbackQuery } from "@/lib/codehost/schemas";
import { finishGithubInstall } from "@/lib/codehost/github-install";

// GitHub's "Setup URL": the browser arrives here after installing the App, signed in to the board.
export const GET = withUser({ query: installCallbackQuery }, async ({ db, caller, query }) => {
  const workspaceId = await finishGithubInstall(db, caller.userId, query.installation_id, query.state);
  return new Response(null, { status: 303, headers: { location: `/w/${workspaceId}/settings?github=installed` } });
});
