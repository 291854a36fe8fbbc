import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import type { Project } from "@/lib/generated/prisma/client";
import { notFound } from "@/lib/platform/errors";
import type { createProjectBody, listProjectsQuery, projectResponse, updateProjectBody } from "@/lib/projects/schemas";

export async function createProject(db: Db, workspaceId: string, input: z.output<typeof createProjectBody>) {
  return serializeProject(await db.project.create({ data: { workspaceId, ...input } }));
}

/** Newest first (the (workspace_id, created_at) index serves it). */
export async function listProjects(db: Db, workspaceId: string, query: z.output<typeof listProjectsQuery>) {
  const rows = await db.project.findMany({
    where: { workspaceId, status: query.status },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: query.limit,
  });
  return rows.map(serializeProject);
}

export async function getProject(db: Db, workspaceId: string, projectId: string) {
  const row = await db.project.findFirst({ where: { id: projectId, workspaceId } });
  if (!row) throw notFound("Project");
  return serializeProject(row);
}

export async function updateProject(db: Db, workspaceId: string, projectId: string, input: z.output<typeof updateProjectBody>) {
  const { count } = await db.project.updateMany({ where: { id: projectId, workspaceId }, data: input });
  if (count === 0) throw notFound("Project");
  return getProject(db, workspaceId, projectId);
}

/** Tasks of the project stay, unlinked (the foreign key sets their project_id to null). */
export async function deleteProject(db: Db, workspaceId: string, projectId: string) {
  const { count } = await db.project.deleteMany({ where: { id: projectId, workspaceId } });
  if (count === 0) throw notFound("Project");
}

export function serializeProject(row: Project): z.output<typeof projectResponse> {
  return {
    id: row.id,
    workspace_id: row.workspaceId,
    name: row.name,
    description: row.description,
    status: row.status,
    priority: row.priority,
    tags: row.tags,
    phases: row.phases,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
