import { z } from "zod";
import { queryInt } from "@/lib/platform/schema-primitives";
import { workspaceParams } from "@/lib/workspaces/schemas";
import { PRIORITIES } from "@/lib/tasks/columns";
import { PROJECT_STATUSES } from "@/lib/projects/statuses";

export const PROJECT_LIST_LIMIT = { default: 100, max: 500 };

export const projectParams = workspaceParams.extend({ project_id: z.string() });

const name = z.string().trim().min(1).max(200);
const description = z.string().max(20_000);
const status = z.enum(PROJECT_STATUSES);
const priority = z.enum(PRIORITIES);
const tags = z.array(z.string().trim().min(1).max(50)).max(50);
const phases = z.array(z.string().trim().min(1).max(200)).max(50).describe("Phase names, in order; a task's `phase` is an index into it.");

export const createProjectBody = z.object({
  name,
  description: description.default(""),
  status: status.default("active"),
  priority: priority.default("p3"),
  tags: tags.default([]),
  phases: phases.default([]),
});

export const updateProjectBody = z.object({
  name: name.optional(),
  description: description.optional(),
  status: status.optional(),
  priority: priority.optional(),
  tags: tags.optional(),
  phases: phases.optional(),
});

export const listProjectsQuery = z.object({
  status: status.optional(),
  limit: queryInt(z.int().min(1).max(PROJECT_LIST_LIMIT.max).default(PROJECT_LIST_LIMIT.default)),
});

export const projectResponse = z.object({
  id: z.string(),
  workspace_id: z.string(),
  name: z.string(),
  description: z.string(),
  status: z.string(),
  priority: z.string(),
  tags: z.array(z.string()),
  phases: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
