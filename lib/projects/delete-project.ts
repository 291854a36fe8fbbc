import type { Db } from "@/lib/db/client";
import { notFound } from "@/lib/platform/errors";

/** Tasks of the project stay, unlinked (the foreign key sets their project_id to null). */
export async function deleteProject(db: Db, workspaceId: string, projectId: string) {
  const { count } = await db.project.deleteMany({ where: { id: projectId, workspaceId } });
  if (count === 0) throw notFound("Project");
}
