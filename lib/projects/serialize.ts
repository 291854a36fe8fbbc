import type { z } from "zod";
import type { Project } from "@/lib/generated/prisma/client";
import type { projectResponse } from "@/lib/projects/schemas";

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
