import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import { notFound } from "@/lib/platform/errors";
import type { updateProjectBody } from "@/lib/projects/schemas";
import { getProject } from "@/lib/projects/get-project";

export async function updateProject(db: Db, workspaceId: string, projectId: string, input: z.output<typeof updateProjectBody>) {
  const { count } = await db.project.updateMany({ where: { id: projectId, workspaceId }, data: input });
  if (count === 0) throw notFound("Project");
  return getProject(db, workspaceId, projectId);
}
