import { z } from "zod";
import type { OperationSpec } from "@/lib/openapi/types";
import { workspaceParams } from "@/lib/workspaces/schemas";
import { createProjectBody, listProjectsQuery, projectParams, projectResponse, updateProjectBody } from "@/lib/projects/schemas";

const projectNotFound = { 404: { description: "Workspace or project not found" } };

export const projectOperations: OperationSpec[] = [
  {
    method: "post",
    path: "/api/workspaces/{id}/projects",
    operationId: "createProject",
    summary: "Create a project",
    tags: ["projects"],
    params: workspaceParams,
    body: createProjectBody,
    responses: { 201: { description: "The project", schema: projectResponse } },
  },
  {
    method: "get",
    path: "/api/workspaces/{id}/projects",
    operationId: "listProjects",
    summary: "Projects, newest first; at most `limit` (default 100, max 500)",
    tags: ["projects"],
    params: workspaceParams,
    query: listProjectsQuery,
    responses: { 200: { description: "Projects", schema: z.array(projectResponse) } },
  },
  {
    method: "get",
    path: "/api/workspaces/{id}/projects/{project_id}",
    operationId: "getProject",
    summary: "One project",
    tags: ["projects"],
    params: projectParams,
    responses: { 200: { description: "The project", schema: projectResponse }, ...projectNotFound },
  },
  {
    method: "patch",
    path: "/api/workspaces/{id}/projects/{project_id}",
    operationId: "updateProject",
    summary: "Change some fields of a project",
    tags: ["projects"],
    params: projectParams,
    body: updateProjectBody,
    responses: { 200: { description: "The project", schema: projectResponse }, ...projectNotFound },
  },
  {
    method: "delete",
    path: "/api/workspaces/{id}/projects/{project_id}",
    operationId: "deleteProject",
    summary: "Delete a project; its tasks stay, unlinked",
    tags: ["projects"],
    params: projectParams,
    responses: { 204: { description: "Deleted" }, ...projectNotFound },
  },
];
