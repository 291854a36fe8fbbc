import type { Db } from "@/lib/db/client";
import { notFound } from "@/lib/platform/errors";
import { serializeProject } from "@/lib/projects/serialize";

export async function getProject(db: Db, workspaceId: string, projectId: string) {
  const row = await db.project.findFirst({ where: { id: projectId, workspaceId } });
  if (!row) throw notFound("Project");
  return serializeProject(row);
}
