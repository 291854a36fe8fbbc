import { json, withWorkspace } from "@/lib/api/handler";
import { watchBody } from "@/lib/notifications/schemas";
import { isWatching, setWatching } from "@/lib/notifications/watch-workspace";
import { workspaceParams } from "@/lib/workspaces/schemas";

// The caller's own watch of the workspace's questions; a person's, never an agent token's.
const rules = { params: workspaceParams, humansOnly: "watch a workspace's questions" };

export const GET = withWorkspace(rules, async ({ db, workspace, caller }) =>
  json({ watching: await isWatching(db, workspace.id, caller.userId) }),
);

export const PUT = withWorkspace({ ...rules, body: watchBody }, async ({ db, workspace, caller, body }) =>
  json(await setWatching(db, workspace.id, caller.userId, body.watching)),
);
