import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import type { listProjectsQuery } from "@/lib/projects/schemas";
import { serializeProject } from "@/lib/projects/serialize";

/** Newest first (the (workspace_id, created_at) index serves it). */
export async function listProjects(db: Db, workspaceId: string, query: z.output<typeof listProjectsQuery>) {
  const rows = await db.project.findMany({
    where: { workspaceId, status: query.status },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: query.limit,
  });
  return rows.map(serializeProject);
}
