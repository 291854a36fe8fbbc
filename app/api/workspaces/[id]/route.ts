import { json, withWorkspace } from "@/lib/api/handler";
import { workspaceParams } from "@/lib/workspaces/schemas";
import { serializeWorkspace } from "@/lib/workspaces/workspaces";

export const GET = withWorkspace({ params: workspaceParams }, async ({ db, workspace, role }) => {
  const row = await db.workspace.findUniqueOrThrow({ where: { id: workspace.id } });
  return json({ ...serializeWorkspace(row), role });
});
