import { json, noContent, withWorkspace } from "@/lib/api/handler";
import { workspaceParams } from "@/lib/workspaces/schemas";
import { setRepositoryBody } from "@/lib/repositories/schemas";
import { deleteRepository, setRepository } from "@/lib/git/remote/connect-repository";
import { getRepository } from "@/lib/repositories/repository";

export const GET = withWorkspace({ params: workspaceParams }, async ({ db, workspace }) => json(await getRepository(db, workspace.id)));

export const PUT = withWorkspace(
  { params: workspaceParams, body: setRepositoryBody, ownerOnly: true, humansOnly: "set or remove the repository" },
  async ({ db, workspace, body, caller }) => json(await setRepository(db, workspace.id, body, caller.isAdmin)),
);

export const DELETE = withWorkspace(
  { params: workspaceParams, ownerOnly: true, humansOnly: "set or remove the repository" },
  async ({ db, workspace }) => {
    await deleteRepository(db, workspace.id);
    return noContent();
  },
);
