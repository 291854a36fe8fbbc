import { json, withUser } from "@/lib/api/handler";
import { createWorkspaceBody } from "@/lib/workspaces/schemas";
import { createWorkspace } from "@/lib/workspaces/create-workspace";
import { listWorkspaces } from "@/lib/workspaces/list-workspaces";

export const GET = withUser({}, async ({ db, caller }) => json(await listWorkspaces(db, caller.userId)));

export const POST = withUser({ body: createWorkspaceBody }, async ({ db, caller, body }) =>
  json(await createWorkspace(db, caller.userId, body.name), 201),
);
