import type { z } from "zod";
import type { Db } from "@/lib/db/client";
import type { createProjectBody } from "@/lib/projects/schemas";
import { serializeProject } from "@/lib/projects/serialize";

export async function createProject(db: Db, workspaceId: string, input: z.output<typeof createProjectBody>) {
  return serializeProject(await db.project.create({ data: { workspaceId, ...input } }));
}
