import { z } from "zod";
import type { OperationSpec } from "@/lib/openapi/types";
import {
  addMemberBody,
  createWorkspaceBody,
  member,
  workspace,
  workspaceParams,
  memberParams,
  workspaceWithRole,
} from "@/lib/workspaces/schemas";

export const workspaceOperations: OperationSpec[] = [
  {
    method: "get",
    path: "/api/workspaces",
    operationId: "listWorkspaces",
    summary: "Workspaces the caller is a member of, with the caller's role",
    tags: ["workspaces"],
    responses: { 200: { description: "Workspaces", schema: z.array(workspaceWithRole) } },
  },
  {
    method: "post",
    path: "/api/workspaces",
    operationId: "createWorkspace",
    summary: "Create a workspace; the caller becomes its owner",
    tags: ["workspaces"],
    body: createWorkspaceBody,
    responses: { 201: { description: "The workspace", schema: workspace } },
  },
  {
    method: "get",
    path: "/api/workspaces/{id}",
    operationId: "getWorkspace",
    summary: "One workspace, with the caller's role",
    tags: ["workspaces"],
    params: workspaceParams,
    responses: { 200: { description: "The workspace", schema: workspaceWithRole } },
  },
  {
    method: "get",
    path: "/api/workspaces/{id}/members",
    operationId: "listMembers",
    summary: "Members of the workspace",
    tags: ["workspaces"],
    params: workspaceParams,
    responses: { 200: { description: "Members", schema: z.array(member) } },
  },
  {
    method: "post",
    path: "/api/workspaces/{id}/members",
    operationId: "addMember",
    summary: "Add a user to the workspace (owners only)",
    tags: ["workspaces"],
    params: workspaceParams,
    body: addMemberBody,
    responses: {
      201: { description: "The membership", schema: member },
      403: { description: "Only workspace owners may do this" },
      404: { description: "Workspace or user not found" },
      409: { description: "The user is already a member" },
    },
  },
  {
    method: "delete",
    path: "/api/workspaces/{id}/members/{user_id}",
    operationId: "removeMember",
    summary: "Remove a user from the workspace (owners only)",
    tags: ["workspaces"],
    params: memberParams,
    responses: {
      204: { description: "Removed" },
      403: { description: "Only workspace owners may do this (agent tokens never)" },
      404: { description: "Workspace not found, or the user is not a member" },
      409: { description: "The last owner cannot be removed" },
    },
  },
];
